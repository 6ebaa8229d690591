import Domain
import Foundation
import JSONTape

/// Everybody's messages decoded on two threads: the people are cut in two halves of about
/// the same size on the tape, and a `helper` decodes the second while the caller decodes
/// the first.
///
/// Decoding half a million messages into strings was a quarter of `app messages`' time
/// (docs/messages.md) and ran on one thread while the other core waited for the rendering.
/// The tape is read-only once parsed, so both halves read it at once. The answer is the one
/// `init(from:)` gives through `TapeDecoder`: the same people in the same order (each
/// distinct name once, with its first value), each list through `[MessageDTO]`'s own
/// reading. Whatever that path refuses, Foundation decides, as `BodyDecoder` does.
extension AllMessagesBody {
  /// Below this, a body decodes in a few milliseconds and a second thread is not worth
  /// waking.
  static let halvesFrom = 1 << 20

  static func decode(_ json: [UInt8], helper: (any TaskExecutor)?) async throws(EnvelopeError)
    -> AllMessagesBody
  {
    guard let helper, json.count >= halvesFrom else {
      return try BodyDecoder.decode(Self.self, from: json)
    }
    if let tape = JSONTape.parse(json), let body = await inHalves(tape, helper: helper) {
      return body
    }
    return try BodyDecoder.decodeWithFoundation(Self.self, from: Data(json))
  }

  /// The body, or nil wherever `TapeDecoder` would have refused it.
  private static func inHalves(_ tape: JSONTape, helper: any TaskExecutor) async -> Self? {
    guard TapeValue(tape: tape, index: 0).kind == .object,
      let people = try? TapeObjectIndex(tape: tape, object: 0)
    else { return nil }
    let (names, values) = (people.names, people.firstValues)
    let split = middle(of: values, on: tape)
    let secondHalf = Task(executorPreference: helper) {
      try? decode(names[split...], values[split...], on: tape)
    }
    let firstHalf = try? decode(names[..<split], values[..<split], on: tape)
    // Awaited whatever the first half gave, so that no work outlives the call.
    guard let second = await secondHalf.value, var items = firstHalf else { return nil }
    items.append(contentsOf: second)
    return AllMessagesBody(items: items)
  }

  /// The position in `values` where the entries of the tape before it are about half of
  /// all the people's entries, so that both threads have about as many messages to read.
  private static func middle(of values: [Int], on tape: JSONTape) -> Int {
    let sizes = values.map { tape.next(after: $0) - $0 }
    let half = sizes.reduce(0, +) / 2
    var sum = 0
    for (position, size) in sizes.enumerated() {
      sum += size
      if sum >= half { return position + 1 }
    }
    return values.count
  }

  private static func decode(
    _ names: ArraySlice<String>, _ values: ArraySlice<Int>, on tape: JSONTape
  ) throws -> [UserMessages] {
    try zip(names, values).map { name, value in
      let messages = try [MessageDTO](tapeValue: TapeValue(tape: tape, index: value))
      return UserMessages(name: name, messages: messages.map { $0.domainMessage })
    }
  }
}
