import Contract
import Foundation
import Testing

/// The request bodies carry API.md's field names, whichever side encodes or decodes them.
@Suite(.timeLimit(.minutes(1))) struct BodyTests {
  private func keys(_ body: some Encodable) throws -> Set<String> {
    let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(body))
    return Set(try #require(object as? [String: Any]).keys)
  }

  @Test func eachBody_hasTheFieldsOfTheAPIDocument() throws {
    #expect(
      try keys(APIBody.SignUp(username: "u", password: "p", name: "n"))
        == ["username", "password", "name"])
    #expect(
      try keys(APIBody.TokenRequest(username: "u", password: "p"))
        == ["grant_type", "username", "password"])
    #expect(
      try keys(APIBody.AddMessage(user: "u", subject: "s", message: "m"))
        == ["user", "operation", "subject", "message"])
    #expect(
      try keys(APIBody.PushRegistration(uuid: "d", session: "s", token: "t"))
        == ["uuid", "session", "token"])
    #expect(try keys(APIBody.Device(uuid: "d")) == ["uuid"])
  }

  @Test func theTokenRequestIsThePasswordGrant_andAMessageIsAnAdd() throws {
    let token = try JSONEncoder().encode(APIBody.TokenRequest(username: "u", password: "p"))
    let message = try JSONEncoder().encode(
      APIBody.AddMessage(user: "u", subject: "s", message: "m"))
    #expect(String(decoding: token, as: UTF8.self).contains(#""grant_type":"password""#))
    #expect(String(decoding: message, as: UTF8.self).contains(#""operation":"add_message""#))
  }
}
