import Foundation
import TestSupport
import Testing

@testable import Backend

/// Tokens checked in the last second are not looked up again, and a revoke reaches every
/// instance within that second: two backends on one file stand for two `app serve` instances
/// (or two `app` processes on one data folder), on one test clock.
@Suite(.timeLimit(.minutes(1))) struct RecentTokensTests {
  @Test func aRevokeOnOneInstance_isRefusedThereAtOnce_andOnTheOtherWithinASecond() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let now = TestNow()
    let first = try await Self.open(folder, now: now)
    let second = try await Self.open(folder, now: now)
    let token = try await Self.signIn(first)
    #expect(await second.handle(Self.me(token)).status == 200, "checked, and now remembered")

    let revoked = await first.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["auth", "revoke"],
        headers: ["Authorization": "Bearer \(token)"]))
    let onTheFirst = await first.handle(Self.me(token)).status
    now.advance(by: RecentTokens.lifetime)
    let onTheSecond = await second.handle(Self.me(token)).status

    #expect(revoked.status == 204)
    #expect(onTheFirst == 401, "the instance that revoked forgets the token at once")
    #expect(onTheSecond == 401, "the other refuses it a second later at the latest")
  }

  @Test func aRememberedToken_isOnlyKeptForASecond_onTheBackendsClock() {
    let tokens = RecentTokens()
    let account = AccountRecord(id: "1", username: "demo", name: "Demo", passwordHash: "x")
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    tokens.remember(account, tokenHash: "h", now: start)

    #expect(tokens.account(tokenHash: "h", now: start.addingTimeInterval(0.5)) == account)
    #expect(tokens.account(tokenHash: "h", now: start.addingTimeInterval(1)) == nil)
    #expect(
      tokens.account(tokenHash: "h", now: start.addingTimeInterval(-1)) == nil,
      "a clock that steps back makes the entry stale")
  }

  @Test func madeUpTokens_neverGrowItPastItsCapacity() {
    let tokens = RecentTokens()
    let account = AccountRecord(id: "1", username: "demo", name: "Demo", passwordHash: "x")
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    for index in 0..<(RecentTokens.capacity + 10) {
      tokens.remember(account, tokenHash: "\(index)", now: start)
    }

    #expect(tokens.count <= RecentTokens.capacity)
    #expect(
      tokens.account(tokenHash: "\(RecentTokens.capacity + 9)", now: start) == account,
      "the newest is kept")
  }

  // MARK: - Helpers

  private static func open(_ folder: URL, now: TestNow) async throws -> APIBackend {
    try await APIBackend.open(
      .sqliteFile(folder.appendingPathComponent("backend.sqlite")), now: { now.date },
      randomBytes: { count in (0..<count).map { _ in UInt8.random(in: 0...255) } },
      clock: ContinuousClock(),
      passwordRounds: 1_000, demo: DemoPeople())
  }

  private static func signIn(_ backend: APIBackend) async throws -> String {
    let answer = await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["oauth", "token"],
        headers: ["Content-Type": "application/json"],
        body: Data(
          #"{"grant_type":"password","username":"demo","password":"demo-password"}"#.utf8)))
    let document = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
    return try #require(document?["access_token"] as? String, "\(answer.status)")
  }

  private static func me(_ token: String) -> BackendHTTPRequest {
    BackendHTTPRequest(
      method: "GET", pathSegments: ["me"], headers: ["Authorization": "Bearer \(token)"])
  }
}
