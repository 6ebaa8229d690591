import Contract
import Foundation
import Testing

@testable import Backend

/// `GET /likes` answers with a body written by hand; it must be, byte for byte, what
/// `JSONEncoder` writes for the contract's page (`APIAnswer.LikesPage`), for names and URLs
/// full of what needs escaping.
@Suite(.timeLimit(.minutes(1))) struct LikesPageJSONTests {
  @Test(arguments: MessagesEnvelopeTests.hardTexts)
  func aPage_isWhatJSONEncoderWrites(text: String) throws {
    let likes = [
      IncomingLike(id: "0b6f\(text)", userName: text, avatarURL: "https://a.example/\(text).png"),
      IncomingLike(id: "e2c1", userName: "Zoë B.", avatarURL: nil),
    ]
    for nextCursor in [2, nil] {
      for page in [likes, []] {
        let expected = try Self.encoder.encode(
          APIAnswer.LikesPage(data: page.map(APIAnswer.UserModel.init), nextCursor: nextCursor))
        let written = LikesPageJSON.body(page, nextCursor: nextCursor)
        #expect(
          written == expected,
          "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))"
        )
      }
    }
  }

  @Test(arguments: MessagesEnvelopeTests.hardTexts)
  func theMutuals_areWhatJSONEncoderWrites(text: String) throws {
    let likes = [
      IncomingLike(id: "0b6f", userName: text, avatarURL: nil, name: text),
      IncomingLike(id: "e2c1\(text)", userName: "Zoë B.", avatarURL: "https://a.example/\(text)"),
    ]
    for mutuals in [likes, []] {
      let expected = try Self.encoder.encode(
        APIAnswer.Mutuals(data: mutuals.map(APIAnswer.UserModel.init)))
      #expect(LikesPageJSON.mutualsBody(mutuals) == expected)
    }
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
