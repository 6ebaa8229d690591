import Foundation
import GRDB
import TestSupport
import Testing

@testable import Backend

@Suite(.timeLimit(.minutes(1))) struct APIBackendAuthRoutesTests {
  @Test func demoAccount_canSignIn_andReadItsProfile() async throws {
    let backend = try TestBackend.make()

    let token = try await signIn(backend, "demo", "demo-password")
    let me = await backend.handle(get("/me", token: token))

    #expect(me.status == 200)
    let profile = try json(me)
    #expect(profile["username"] as? String == "demo")
    #expect(profile["name"] as? String == "Demo User")
    #expect((profile["id"] as? String)?.count == 36)
  }

  @Test func tokenAnswer_followsTheContract() async throws {
    let now = TestNow()
    let backend = try TestBackend.make(now: now)

    let answer = await backend.handle(
      post(
        "/oauth/token", ["grant_type": "password", "username": "demo", "password": "demo-password"])
    )

    #expect(answer.status == 200)
    let body = try json(answer)
    #expect(body["token_type"] as? String == "bearer")
    #expect(body["scope"] as? String == "public")
    #expect(body["created_at"] as? Int == Int(now.date.timeIntervalSince1970))
    #expect(body["expires_in"] as? Int == APIBackend.tokenLifetime)
    #expect((body["access_token"] as? String)?.isEmpty == false)
  }

  @Test(arguments: [
    ("demo", "wrong-password"), ("nobody", "demo-password"), ("DEMO", "demo-password"),
  ])
  func wrongCredentials_get401InvalidGrant(username: String, password: String) async throws {
    let backend = try TestBackend.make()
    let answer = await backend.handle(
      post("/oauth/token", ["grant_type": "password", "username": username, "password": password]))
    #expect(answer.status == 401)
    #expect(try json(answer)["error"] as? String == "invalid_grant")
  }

  @Test func signUp_creates201_thenTheUsernameIsTaken() async throws {
    let backend = try TestBackend.make()
    let account = ["username": "alice", "password": "long-enough", "name": "Alice Liddell"]

    let created = await backend.handle(post("/auth/signup", account))
    let again = await backend.handle(post("/auth/signup", account))

    #expect(created.status == 201)
    let token = try #require(try json(created)["access_token"] as? String)
    let me = try json(await backend.handle(get("/me", token: token)))
    #expect(me["username"] as? String == "alice")
    #expect(me["first_name"] as? String == "Alice")
    #expect(me["last_name"] as? String == "Liddell")
    #expect(again.status == 409)
    #expect(try json(again)["error"] as? String == "username_taken")
  }

  @Test(arguments: [
    ["username": "al", "password": "long-enough", "name": "Al"],
    ["username": "Alice", "password": "long-enough", "name": "Alice"],
    ["username": "alice", "password": "short", "name": "Alice"],
    ["username": "alice", "password": "long-enough", "name": "  "],
    ["username": "alice"],
  ])
  func signUp_refusesBadInputWith422(_ body: [String: String]) async throws {
    let backend = try TestBackend.make()
    let answer = await backend.handle(post("/auth/signup", body))
    #expect(answer.status == 422)
    #expect(try json(answer)["error"] as? String == "invalid_request")
  }

  @Test func me_answers401_withoutAValidToken() async throws {
    let backend = try TestBackend.make()
    for request in [get("/me", token: nil), get("/me", token: "made-up")] {
      let answer = await backend.handle(request)
      #expect(answer.status == 401)
      #expect(try json(answer)["error"] as? String == "invalid_token")
    }
  }

  @Test func revoke_endsTheToken_andASecondRevokeGets401() async throws {
    let backend = try TestBackend.make()
    let token = try await signIn(backend, "demo", "demo-password")

    let revoked = await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["auth", "revoke"],
        headers: ["Authorization": "Bearer \(token)"]))
    let me = await backend.handle(get("/me", token: token))
    let again = await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["auth", "revoke"],
        headers: ["Authorization": "Bearer \(token)"]))

    #expect(revoked.status == 204)
    #expect(me.status == 401)
    #expect(again.status == 401)
  }

  @Test func tokens_expireAfterTheirLifetime() async throws {
    let now = TestNow()
    let backend = try TestBackend.make(now: now)
    let token = try await signIn(backend, "demo", "demo-password")

    now.advance(by: TimeInterval(APIBackend.tokenLifetime - 1))
    #expect(await backend.handle(get("/me", token: token)).status == 200)
    now.advance(by: 1)
    #expect(await backend.handle(get("/me", token: token)).status == 401)
  }

  @Test func storesNeitherPasswordsNorTokensInTheClear() async throws {
    let backend = try TestBackend.make()
    let token = try await signIn(backend, "demo", "demo-password")

    let database = try #require(backend.store as? BackendDatabase, "the SQLite store")
    let rows = try await database.writer.read { db in
      try String.fetchAll(db, sql: "SELECT passwordHash FROM account")
        + String.fetchAll(db, sql: "SELECT tokenHash FROM token")
    }

    #expect(rows.count == 2)
    #expect(rows.allSatisfy { !$0.contains("demo-password") && !$0.contains(token) })
    #expect(rows[0].hasPrefix("pbkdf2-sha256$"))
  }

  @Test func unknownRoutesGet404_andBrokenJSONGets422() async throws {
    let backend = try TestBackend.make()
    #expect(await backend.handle(get("/nowhere", token: nil)).status == 404)
    let broken = await backend.handle(
      BackendHTTPRequest(method: "POST", pathSegments: ["oauth", "token"], body: Data("{".utf8)))
    #expect(broken.status == 422)
  }

  @Test func stateSurvivesReopeningTheFile() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("backend.sqlite")
    let now = TestNow()
    let bytes: @Sendable (Int) -> [UInt8] = { CompositionRandom.bytes($0) }

    let token: String
    do {
      let first = try await APIBackend.open(
        .sqliteFile(file), now: { now.date }, randomBytes: bytes, clock: ContinuousClock(),
        passwordRounds: 1_000, demo: DemoPeople())
      token = try await signIn(first, "demo", "demo-password")
    }
    let second = try await APIBackend.open(
      .sqliteFile(file), now: { now.date }, randomBytes: bytes, clock: ContinuousClock(),
      passwordRounds: 1_000, demo: DemoPeople())

    #expect(await second.handle(get("/me", token: token)).status == 200)
    let mode =
      try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  // MARK: - Helpers

  private func signIn(_ backend: APIBackend, _ username: String, _ password: String)
    async throws -> String
  {
    let answer = await backend.handle(
      post("/oauth/token", ["grant_type": "password", "username": username, "password": password]))
    return try #require(try json(answer)["access_token"] as? String)
  }

  private func post(_ path: String, _ body: [String: String]) -> BackendHTTPRequest {
    BackendHTTPRequest(
      method: "POST", pathSegments: path.split(separator: "/").map(String.init),
      headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(body))
  }

  private func get(_ path: String, token: String?) -> BackendHTTPRequest {
    BackendHTTPRequest(
      method: "GET", pathSegments: path.split(separator: "/").map(String.init),
      headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
  }

  private func json(_ response: BackendHTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
  }
}

/// Real randomness for tests that need distinct values across instances.
private enum CompositionRandom {
  static func bytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }
}
