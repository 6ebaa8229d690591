import Contract
import Foundation
import Testing

@testable import Backend

/// The messages envelope, and one person's messages inside it, are written by hand; they
/// must be, byte for byte, what `JSONEncoder` writes for the contract's values
/// (`APIAnswer.Envelope`, `APIAnswer.UserMessages`), for texts full of what needs escaping.
@Suite(.timeLimit(.minutes(1))) struct MessagesEnvelopeTests {
  static let hardTexts = [
    "plain", "", "quote \" backslash \\ slash /", "tab\tnewline\ncr\r\u{08}\u{0C}",
    "controls \u{00}\u{01}\u{1F} and DEL \u{7F}", "Zoë 山田太郎 🐱 \u{2028}",
  ]

  @Test(arguments: hardTexts)
  func onePersonsMessages_areWhatJSONEncoderWrites(text: String) throws {
    let messages = [
      APIAnswer.Message(subject: text, message: text),
      APIAnswer.Message(subject: "next", message: text),
    ]
    for body in [
      APIAnswer.UserMessages(user: text, message: messages),
      APIAnswer.UserMessages(user: text, message: []),
    ] {
      try expectWrittenAsJSONEncoderWrites(statusCode: 200, body)
    }
  }

  @Test(arguments: hardTexts)
  func otherBodies_goThroughJSONEncoder_insideTheSameEnvelope(text: String) throws {
    try expectWrittenAsJSONEncoderWrites(statusCode: 404, ["error": text])
    try expectWrittenAsJSONEncoderWrites(
      statusCode: 200, [text: [APIAnswer.Message(subject: text, message: text)], "b": []])
  }

  @Test(arguments: hardTexts)
  func everybodysMessages_areWhatJSONEncoderWrites_inItsOrderOfNames(text: String) throws {
    let messages = [
      APIAnswer.Message(subject: text, message: text, fromMe: true, sentAt: 1_700_000_000),
      APIAnswer.Message(subject: "next", message: text, fromMe: false, sentAt: 1_700_000_001),
    ]
    let names = [text, "b", "B", "a10", "a2", "Zoë", "zoe", "山田", "_", "é", "🐱", "b b"]
    let byName = Dictionary(
      names.enumerated().map { ($1, Array(messages.prefix($0 % 3))) }, uniquingKeysWith: { $1 })
    try expectWrittenAsJSONEncoderWrites(
      statusCode: 200, APIAnswer.AllConversations(byName: byName))
    try expectWrittenAsJSONEncoderWrites(statusCode: 200, APIAnswer.AllConversations(byName: [:]))
  }

  private func expectWrittenAsJSONEncoderWrites(statusCode: Int, _ value: some Encodable) throws {
    let written = BackendHTTPResponse.envelope(statusCode, value)

    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let inner = String(decoding: try encoder.encode(value), as: UTF8.self)
    let expected = try encoder.encode(APIAnswer.Envelope(statusCode: statusCode, body: inner))
    #expect(
      String(decoding: written.body, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    #expect(written.status == 200)
    #expect(written.headers["Content-Type"] == "application/json")
  }
}
