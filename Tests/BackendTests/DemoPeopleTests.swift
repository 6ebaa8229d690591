import Foundation
import TestSupport
import Testing

@testable import Backend

/// A backend invents people only as a demo: without `DemoPeople` it has no demo account, no
/// likes, conversations or events but those accounts make, however long an account waits;
/// and it refuses a demo account's published password that a demo left in its file.
@Suite(.timeLimit(.minutes(1))) struct DemoPeopleTests {
  @Test func withoutADemo_anAccountWaitingAnHour_isInventedNothing() async throws {
    try await withFolder { folder in
      let now = TestNow()
      let backend = try await Self.open(folder, now: now, demo: nil)
      let token = try await Self.signUp(backend, "ana")

      now.advance(by: 3_600)
      let events = await backend.handle(BackendCalls.get("/events?after=0&wait=0", token: token))
      let likes = await backend.handle(
        BackendCalls.get("/likes?page=1&batchSize=10", token: token))
      let messages = await backend.handle(BackendCalls.get("/messages", token: token))

      #expect(await BackendCalls.signIn(backend, password: "demo-password").status == 401)
      #expect((try BackendCalls.json(events)["events"] as? [Any])?.isEmpty == true)
      #expect((try BackendCalls.json(likes)["data"] as? [Any])?.isEmpty == true)
      #expect(String(decoding: messages.body, as: UTF8.self).contains(#""body":"{}""#))
      #expect(!backend.refusesThePublishedDemoAccount, "no demo account, nothing to refuse")
    }
  }

  @Test func asADemo_anAccountWaiting_isInventedLikes() async throws {
    try await withFolder { folder in
      let now = TestNow()
      let backend = try await Self.open(folder, now: now, demo: DemoPeople(likeInterval: 1...1))
      let token = try await BackendCalls.signIn(backend)

      _ = await backend.handle(BackendCalls.get("/events?after=0&wait=0", token: token))
      now.advance(by: 3)
      let events = await backend.handle(BackendCalls.get("/events?after=0&wait=0", token: token))

      #expect((try BackendCalls.json(events)["events"] as? [Any])?.count == 3)
    }
  }

  @Test func aDemosFile_openedWithoutADemo_refusesTheDemoAccount_andItsTokens() async throws {
    try await withFolder { folder in
      let now = TestNow()
      let demo = try await Self.open(folder, now: now, demo: DemoPeople())
      let demoToken = try await BackendCalls.signIn(demo)
      let anaToken = try await Self.signUp(demo, "ana")
      await demo.close()

      let real = try await Self.open(folder, now: now, demo: nil)
      let signIn = await BackendCalls.signIn(real, password: "demo-password")
      let wrong = await BackendCalls.signIn(real, password: "not-the-password")

      #expect(real.refusesThePublishedDemoAccount)
      #expect(signIn.status == 401)
      #expect(
        try BackendCalls.json(signIn)["error_description"] as? String
          == "The demo account signs in only on a server started as a demo (app serve --demo)")
      #expect(
        try BackendCalls.json(wrong)["error_description"] as? String
          == "The username or password is incorrect", "a wrong password stays a wrong one")
      #expect(await real.handle(BackendCalls.get("/me", token: demoToken)).status == 401)
      #expect(await real.handle(BackendCalls.get("/me", token: anaToken)).status == 200)
    }
  }

  private static func open(_ folder: URL, now: TestNow, demo: DemoPeople?) async throws
    -> APIBackend
  {
    try await APIBackend.open(
      .sqliteFile(folder.appendingPathComponent("backend.sqlite")), now: { now.date },
      randomBytes: { count in (0..<count).map { _ in UInt8.random(in: 0...255) } },
      clock: ContinuousClock(), passwordRounds: 1_000, demo: demo)
  }

  private static func signUp(_ backend: APIBackend, _ username: String) async throws -> String {
    let body = ["username": username, "password": "\(username)-password", "name": username]
    let answer = await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["auth", "signup"],
        headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(body)))
    #expect(answer.status == 201)
    return try #require(try BackendCalls.json(answer)["access_token"] as? String)
  }

  private func withFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
  }
}
