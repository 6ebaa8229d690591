import Data
import Domain
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct HTTPMessagesRepositoryTests {
  @Test func loadAll_getsMessagesWithTheBearerToken() async throws {
    let client = HTTPClientStub(
      status: 200, body: BackendResponseTests.envelope(#"{"bob":[{"subject":"s","message":"m"}]}"#))

    let people = try await makeSUT(client).loadAll(with: AccessToken("T"))

    #expect(people == [UserMessages(name: "bob", messages: [Message(subject: "s", text: "m")])])
    let request = try #require(client.requests.first)
    #expect(request.url.absoluteString == "http://server.test/api/messages")
    #expect(request.header("Authorization") == "Bearer T")
  }

  @Test(arguments: [
    ("Mary Ann", "/api/messages/Mary%20Ann"),
    ("a/b?c", "/api/messages/a%2Fb%3Fc"),
    ("山田", "/api/messages/%E5%B1%B1%E7%94%B0"),
    ("O'Neil \"Ace\"", "/api/messages/O'Neil%20%22Ace%22"),
  ])
  func loadPerson_percentEncodesTheName(name: String, path: String) async throws {
    let client = HTTPClientStub(
      status: 200, body: BackendResponseTests.envelope(#"{"user":"x","message":[]}"#))
    _ = try await makeSUT(client).load(person: name, with: AccessToken("T"))
    let url = try #require(client.requests.first?.url)
    let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
    #expect(components.percentEncodedPath == path)
  }

  @Test func loadPerson_mapsAnEnvelope404ToNoSuchPerson() async {
    let client = HTTPClientStub(
      status: 200, body: BackendResponseTests.envelope(#"{"error":"no such person"}"#, status: 404))
    await #expect(throws: MessagesError.noSuchPerson("ghost")) {
      try await makeSUT(client).load(person: "ghost", with: AccessToken("T"))
    }
  }

  @Test func send_postsTheContractsBody_andReturnsTheRecipientsMessages() async throws {
    let client = HTTPClientStub(
      status: 200,
      body: BackendResponseTests.envelope(
        #"{"user":"bob","message":[{"subject":"s","message":"m"}]}"#))

    let person = try await makeSUT(client).send(
      MessageDraft(recipient: "bob", subject: "s", text: "m"), with: AccessToken("T"))

    #expect(person.name == "bob")
    let request = try #require(client.requests.first)
    #expect(request.method == "POST")
    let body = try JSONDecoder().decode([String: String].self, from: try #require(request.body))
    #expect(body == ["user": "bob", "operation": "add_message", "subject": "s", "message": "m"])
  }

  @Test func send_writesAnyTextAsJSONThatDecodesToItExactly() async throws {
    let text = "Quotes \" and \\ and /, \u{0}\u{1B}[2J\u{7F}\u{85}, tabs\t\r\n, 山田 😀 e\u{301}"
    let client = HTTPClientStub(
      status: 200,
      body: BackendResponseTests.envelope(#"{"user":"bob","message":[]}"#))

    _ = try await makeSUT(client).send(
      MessageDraft(recipient: "O'Neil \"Ace\"", subject: "\u{8}\u{C}", text: text),
      with: AccessToken("T"))

    let request = try #require(client.requests.first)
    let body = try JSONDecoder().decode([String: String].self, from: try #require(request.body))
    #expect(
      body == [
        "user": "O'Neil \"Ace\"", "operation": "add_message", "subject": "\u{8}\u{C}",
        "message": text,
      ])
  }

  @Test(arguments: [
    (401, "", RemoteAPIError.unauthorized),
    (200, BackendResponseTests.envelope(#"{"error":"bad token"}"#, status: 401), .unauthorized),
    (
      200, BackendResponseTests.envelope(#"{"error":"maintenance"}"#, status: 503),
      .server(status: 503, code: nil, description: "maintenance")
    ),
    (
      500, BackendResponseTests.envelope("down for repairs", status: 500),
      .server(status: 500, code: nil, description: "down for repairs")
    ),
    (502, "<html>Bad Gateway</html>", .server(status: 502, code: nil, description: nil)),
    (200, "<html>portal</html>", .invalidResponse(reason: "the answer is not JSON")),
    (
      200, BackendResponseTests.envelope("not json"),
      .invalidResponse(reason: "the envelope's body is not valid JSON")
    ),
    (200, #"{"statusCode":200}"#, .invalidResponse(reason: "the envelope has no body")),
  ])
  func loadAll_mapsEveryFailureShape(status: Int, body: String, expected: RemoteAPIError) async {
    await #expect(throws: expected) {
      try await makeSUT(HTTPClientStub(status: status, body: body)).loadAll(with: AccessToken("T"))
    }
  }

  private func makeSUT(_ client: HTTPClientStub) -> HTTPMessagesRepository {
    HTTPMessagesRepository(
      endpoint: APIEndpoint(baseURL: URL(string: "http://server.test/api")!), client: client)
  }
}
