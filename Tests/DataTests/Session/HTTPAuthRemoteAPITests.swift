import Data
import Domain
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct HTTPAuthRemoteAPITests {
  // MARK: - Requests follow the contract

  @Test func signIn_postsThePasswordGrant_belowTheBasePath() async throws {
    let client = HTTPClientStub(status: 200, body: tokenJSON)
    let sut = makeSUT(client)

    let token = try await sut.signIn(username: "alice", password: "pa ss\"word")

    #expect(token == AccessToken("T0KEN"))
    let request = try #require(client.requests.first)
    #expect(request.method == "POST")
    #expect(request.url.absoluteString == "http://server.test/api/v1/oauth/token")
    #expect(request.header("Content-Type") == "application/json")
    let body = try JSONDecoder().decode([String: String].self, from: try #require(request.body))
    #expect(body == ["grant_type": "password", "username": "alice", "password": "pa ss\"word"])
  }

  @Test func signUp_postsTheAccount_andReadsThe201Token() async throws {
    let client = HTTPClientStub(status: 201, body: tokenJSON)
    let sut = makeSUT(client)

    let token = try await sut.signUp(
      NewAccount(username: "alice", name: "Alice L", password: "long-enough"))

    #expect(token == AccessToken("T0KEN"))
    let request = try #require(client.requests.first)
    #expect(request.url.path == "/api/v1/auth/signup")
    let body = try JSONDecoder().decode([String: String].self, from: try #require(request.body))
    #expect(body == ["username": "alice", "name": "Alice L", "password": "long-enough"])
  }

  @Test func fetchProfile_sendsTheBearerToken_andMapsOptionalNames() async throws {
    let client = HTTPClientStub(
      status: 200,
      body: #"{"id":"u1","username":"alice","name":"Alice L","first_name":"Alice","extra":true}"#)
    let sut = makeSUT(client)

    let profile = try await sut.fetchProfile(with: AccessToken("T0KEN"))

    #expect(
      profile
        == UserProfile(
          id: "u1", username: "alice", name: "Alice L", firstName: "Alice", lastName: nil))
    let request = try #require(client.requests.first)
    #expect(request.method == "GET")
    #expect(request.url.path == "/api/v1/me")
    #expect(request.header("Authorization") == "Bearer T0KEN")
  }

  @Test func revoke_postsWithBearer_andAccepts204() async throws {
    let client = HTTPClientStub(status: 204, body: "")
    try await makeSUT(client).revoke(AccessToken("T0KEN"))
    let request = try #require(client.requests.first)
    #expect(request.method == "POST")
    #expect(request.url.path == "/api/v1/auth/revoke")
    #expect(request.header("Authorization") == "Bearer T0KEN")
  }

  // MARK: - Every failure shape

  @Test func signIn_mapsInvalidGrantToInvalidCredentials() async {
    let sut = makeSUT(
      HTTPClientStub(status: 401, body: #"{"error":"invalid_grant","error_description":"no"}"#))
    await #expect(throws: SessionError.invalidCredentials) {
      try await sut.signIn(username: "alice", password: "wrong")
    }
  }

  @Test func signUp_mapsConflictToUsernameTaken_and422ToTheServersReason() async {
    let taken = makeSUT(
      HTTPClientStub(status: 409, body: #"{"error":"username_taken","error_description":"taken"}"#))
    await #expect(throws: SessionError.usernameTaken("alice")) {
      try await taken.signUp(NewAccount(username: "alice", name: "A", password: "long-enough"))
    }
    let refused = makeSUT(
      HTTPClientStub(
        status: 422, body: #"{"error":"invalid_request","error_description":"names are too short"}"#
      ))
    await #expect(throws: SessionError.rejectedByServer(reason: "names are too short")) {
      try await refused.signUp(NewAccount(username: "alice", name: "A", password: "long-enough"))
    }
  }

  @Test(arguments: [
    (401, #"{"error":"invalid_token","error_description":"expired"}"#, RemoteAPIError.unauthorized),
    (401, "", .unauthorized),
    (
      500, "<html><body>Internal Server Error</body></html>",
      .server(status: 500, code: nil, description: nil)
    ),
    (502, "", .server(status: 502, code: nil, description: nil)),
    (
      503, #"{"error":"maintenance","error_description":"back at noon"}"#,
      .unavailable(retryAfter: nil, description: "back at noon")
    ),
    (200, "", .invalidResponse(reason: "the profile answer is not a UserProfile object")),
    (
      200, "<html>captive portal</html>",
      .invalidResponse(reason: "the profile answer is not a UserProfile object")
    ),
    (
      200, #"{"id":"u1"}"#,
      .invalidResponse(reason: "the profile answer is not a UserProfile object")
    ),
  ])
  func fetchProfile_mapsFailureShapes(status: Int, body: String, expected: RemoteAPIError) async {
    let sut = makeSUT(HTTPClientStub(status: status, body: body))
    await #expect(throws: expected) { try await sut.fetchProfile(with: AccessToken("T")) }
  }

  @Test(arguments: [
    (200, #"{"token_type":"bearer"}"#, "the token answer is not an AccessToken object"),
    (
      200, #"{"access_token":"x","token_type":"mac"}"#,
      "the server issued a token this app cannot use"
    ),
    (
      200, #"{"access_token":"","token_type":"bearer"}"#,
      "the server issued a token this app cannot use"
    ),
    (200, "not json", "the token answer is not an AccessToken object"),
  ])
  func signIn_rejectsTokensItCannotUse(status: Int, body: String, reason: String) async {
    let sut = makeSUT(HTTPClientStub(status: status, body: body))
    await #expect(throws: RemoteAPIError.invalidResponse(reason: reason)) {
      try await sut.signIn(username: "a", password: "b")
    }
  }

  @Test func transportFailuresPassThrough() async {
    let sut = makeSUT(HTTPClientStub { _ in throw RemoteAPIError.timedOut(seconds: 15) })
    await #expect(throws: RemoteAPIError.timedOut(seconds: 15)) {
      try await sut.fetchProfile(with: AccessToken("T"))
    }
  }

  // MARK: - Helpers

  private let tokenJSON =
    #"{"access_token":"T0KEN","token_type":"bearer","scope":"public","created_at":1,"expires_in":60}"#

  private func makeSUT(_ client: HTTPClientStub) -> HTTPAuthRemoteAPI {
    HTTPAuthRemoteAPI(
      endpoint: APIEndpoint(baseURL: URL(string: "http://server.test/api/v1")!), client: client)
  }
}
