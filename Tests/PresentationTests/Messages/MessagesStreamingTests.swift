import Domain
import Foundation
import Presentation
import TestSupport
import Testing

/// Everybody's messages written in chunks: the same text as one person at a time, and
/// `--json` byte for byte as `JSONEncoder` writes the documents.
@Suite(.timeLimit(.minutes(1))) struct MessagesStreamingTests {
  private struct EverybodyDocument: Encodable {
    let people: [MessagesScreen.PersonDocument]
  }

  private static func encoderJSON(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try! encoder.encode(value), as: UTF8.self) + "\n"
  }

  /// Text full of what JSON and terminals escape: every control character, quotes,
  /// backslashes, slashes, DEL, C1 controls, the line separators, emoji, other scripts.
  private static func randomText(_ random: inout SplitMix64) -> String {
    let pieces = [
      "a", "Zoë", "山田", "😀", "\"", "\\", "/", "\n", "\t", "\r", "\u{0}", "\u{1B}[2J", "\u{7F}",
      "\u{85}", "\u{9B}", "\u{A0}", "\u{2028}", "\u{FEFF}", "e\u{301}", " ", "\u{8}", "\u{C}",
    ]
    return (0..<Int(random.next() % 12)).map { _ in
      pieces[Int(random.next() % UInt64(pieces.count))]
    }
    .joined()
  }

  private static func randomPeople(_ random: inout SplitMix64, count: Int) -> [UserMessages] {
    (0..<count).map { _ in
      UserMessages(
        name: randomText(&random),
        messages: (0..<Int(random.next() % 4)).map { _ in
          // Who wrote it and when: said, or not, in every combination.
          Message(
            subject: randomText(&random), text: randomText(&random),
            fromMe: [true, false, nil][Int(random.next() % 3)],
            sentAt: random.next() % 2 == 0
              ? nil : Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000)))
        })
    }
  }

  /// Rendered by the caller alone, or with the cooperative pool's executor as the helper
  /// that renders every other block: the text must be the same.
  private static func helper(_ helped: Bool) -> (any TaskExecutor)? {
    helped ? globalConcurrentExecutor : nil
  }

  @Test(arguments: [0, 1, 2, 25], [false, true])
  func everybodyAsJSON_isWhatJSONEncoderWrites(people count: Int, helped: Bool) async {
    var random = SplitMix64(seed: UInt64(count) + 7)
    let people = Self.randomPeople(&random, count: count)
    var written = ""
    await MessagesScreen.writeJSON(people, chunkSize: 64, helper: Self.helper(helped)) {
      written += String(decoding: $0, as: UTF8.self)
    }
    #expect(
      written == Self.encoderJSON(EverybodyDocument(people: people.map(MessagesScreen.document))))
  }

  @Test func onePersonAsJSON_isWhatJSONEncoderWrites() {
    var random = SplitMix64(seed: 3)
    for person in Self.randomPeople(&random, count: 40) {
      #expect(MessagesScreen.json(person) == Self.encoderJSON(MessagesScreen.document(person)))
    }
  }

  @Test(arguments: [false, true])
  func everybodyAsText_isEachPersonsScreen_separatedByABlankLine_inWholePeopleChunks(
    helped: Bool
  ) async {
    var random = SplitMix64(seed: 5)
    let people = Self.randomPeople(&random, count: 30)
    var chunks: [String] = []
    await MessagesScreen.writeText(people, chunkSize: 100, helper: Self.helper(helped)) {
      chunks.append(String(decoding: $0, as: UTF8.self))
    }
    let expected = people.map(MessagesScreen.text).joined(separator: "\n\n") + "\n"
    #expect(chunks.joined() == expected)
    #expect(chunks.count > 1, "a small chunk size gives several chunks")
    // Every chunk ends where a person's screen ends, so none splits a character.
    let screens = people.map(MessagesScreen.text)
    let ends = Set(screens.indices.map { screens[...$0].joined(separator: "\n\n").utf8.count })
    var offset = 0
    for chunk in chunks.dropLast() {
      offset += chunk.utf8.count
      #expect(ends.contains(offset))
    }
  }
}
