import Domain
import Foundation
import TestSupport
import Testing

@testable import App

/// Whole commands in process, through the composition root, with its seams injected: an
/// HTTP client over an in-memory backend the test controls, and for push an `InstantClock`.
/// Failures that take real time over HTTP (a 15 s time-out, a month-old session) are seen
/// here at once.
@Suite(
  .timeLimit(.minutes(2)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct InjectedSeamsAcceptanceTests {
  @Test func aRequestThatTimesOut_endsTheCommandWithTheReason_andKeepsTheSession() async throws {
    let client = try FaultInjectingHTTPClient()
    let app = try AppRunner.inProcess(CompositionSeams(httpClient: client))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    client.fail("GET /messages", with: .timedOut(seconds: 15))

    let messages = try await app.run(["messages"])
    let session = try await app.run(["session"])

    #expect(messages.status == 1)
    #expect(messages.stdout.isEmpty)
    #expect(messages.stderr.contains("error: The server did not answer within 15 s."))
    #expect(client.routes.filter { $0 == "GET /messages" }.count == 1, "asked once, no retry")
    #expect(session.status == 0, "a slow server is no reason to sign out: \(session.stderr)")
    _ = try await app.run(["logout"])
  }

  @Test func pushOn_whenTheVendorTimesOut_undoesThePushBackendsRegistration() async throws {
    let client = try FaultInjectingHTTPClient()
    let clock = InstantClock()
    let app = try AppRunner.inProcess(CompositionSeams(httpClient: client, clock: clock))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    client.fail("POST /vendor/register", with: .timedOut(seconds: 15))

    let on = try await app.run(["push", "on", "--allow-notifications"])
    let status = try await app.run(["push", "status", "--json"])

    #expect(on.status == 1)
    #expect(on.stderr.contains("no answer within 15 s"), "\(on.stderr)")
    #expect(clock.now >= .init(offset: .seconds(3)), "the wait is still taken, on the clock")
    #expect(client.routes.contains("POST /push/deregister"), "the push backend's half is undone")
    #expect(status.status == 0, "\(status.stderr)")
    #expect(try LikesEndToEndTests.json(status.stdout)["registered"] as? Bool == false)
    _ = try await app.run(["logout"])
  }

  @Test func aSessionPastItsLifetime_isRejected_withExit4AndTheSignInHint() async throws {
    let client = try FaultInjectingHTTPClient()
    let app = try AppRunner.inProcess(CompositionSeams(httpClient: client))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    client.now.advance(by: 31 * 24 * 3600)

    let likes = try await app.run(["likes", "--refresh"])
    let session = try await app.run(["session"])

    #expect(likes.status == 4, "\(likes.stderr)")
    #expect(likes.stderr.contains("hint: Run `app login`"), "\(likes.stderr)")
    #expect(session.status == 4, "the rejected session is gone: \(session.stderr)")
  }

  /// Every command that sends the session: after the server rejects it, the person is told
  /// to sign in (exit 4 and the hint), whatever the command, and the session is gone.
  @Test(arguments: [
    ["likes", "--refresh"],
    ["likes", "mutuals"],
    ["likes", "like", Self.unknownID],
    ["likes", "skip", Self.unknownID],
    ["likes", "watch"],
    ["messages"],
    ["messages", "--user", "Alice"],
    ["messages", "send", "--to", "Alice", "--subject", "Hi", "--message", "Hello"],
    ["push", "status"],
    ["push", "on", "--allow-notifications"],
    ["push", "off"],
    ["push", "toggle", "--allow-notifications"],
    ["session"],
  ])
  func aRejectedSession_endsEveryCommandThatUsesIt_withExit4AndTheSignInHint(
    command: [String]
  ) async throws {
    let client = try FaultInjectingHTTPClient()
    let app = try AppRunner.inProcess(
      CompositionSeams(httpClient: client, clock: InstantClock()))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    client.now.advance(by: 31 * 24 * 3600)

    let result = try await app.run(command)
    let session = try await app.run(["session"])

    #expect(result.status == 4, "\(command): \(result.stderr)")
    #expect(result.stderr.contains("hint: Run `app login`"), "\(command): \(result.stderr)")
    #expect(result.stdout.isEmpty, "\(command) printed a result: \(result.stdout)")
    #expect(session.status == 4, "the rejected session is gone after \(command)")
  }

  /// A full id, so that `like` and `skip` ask the server instead of the cache.
  private static let unknownID = "00000000-0000-4000-8000-000000000000"
}
