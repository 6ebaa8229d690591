import Foundation
import Testing

@testable import Backend

/// `GET /likes` answers with a body written by hand; it must be, byte for byte, what
/// `JSONEncoder` writes for the same page, for names and URLs full of what needs escaping.
@Suite(.timeLimit(.minutes(1))) struct LikesPageJSONTests {
  /// The page as the contract spells it, through `JSONEncoder`: nulls written, not left out.
  private struct Page: Encodable {
    let data: [User]
    let nextCursor: Int?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(data, forKey: .data)
      try container.encode(nextCursor, forKey: .nextCursor)
    }

    private enum CodingKeys: String, CodingKey { case data, nextCursor }
  }

  private struct User: Encodable {
    let id: String
    let userName: String
    let avatarURL: String?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(userName, forKey: .userName)
      try container.encode(avatarURL, forKey: .avatarURL)
    }

    private enum CodingKeys: String, CodingKey { case id, userName, avatarURL }
  }

  @Test(arguments: MessagesEnvelopeTests.hardTexts)
  func aPage_isWhatJSONEncoderWrites(text: String) throws {
    let likes = [
      IncomingLike(id: "0b6f\(text)", userName: text, avatarURL: "https://a.example/\(text).png"),
      IncomingLike(id: "e2c1", userName: "Zoë B.", avatarURL: nil),
    ]
    for nextCursor in [2, nil] {
      for page in [likes, []] {
        let expected = try Self.encoder.encode(
          Page(
            data: page.map { User(id: $0.id, userName: $0.userName, avatarURL: $0.avatarURL) },
            nextCursor: nextCursor))
        let written = LikesPageJSON.body(page, nextCursor: nextCursor)
        #expect(
          written == expected,
          "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))"
        )
      }
    }
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
