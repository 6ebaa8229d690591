import Foundation

/// The one way both sides decode JSON that may be megabytes: the tape first, Foundation's
/// `JSONDecoder` whenever the tape refuses.
///
/// The tape decodes through `T`'s own `init(from:)` and gives Foundation's value or
/// throws, so the answer is always Foundation's; only the time differs. Foundation spent
/// most of a large message's time unescaping its text, on the client reading an answer and
/// on the backend reading the message sent (docs/messages.md).
package enum TapeFirstDecoding {
  /// The fast path alone: nil when the tape refuses the JSON or `T` refuses the tape.
  package static func decodeWithTape<T: Decodable>(_ type: T.Type, from json: [UInt8]) -> T? {
    guard let tape = JSONTape.parse(json) else { return nil }
    return try? T(from: TapeDecoder(tape: tape, index: 0))
  }

  /// `T` from `json`, with exactly Foundation's answer: its value, or its error.
  package static func decode<T: Decodable>(_ type: T.Type, from json: [UInt8]) throws -> T {
    if let value = decodeWithTape(type, from: json) { return value }
    return try JSONDecoder().decode(type, from: Data(json))
  }
}
