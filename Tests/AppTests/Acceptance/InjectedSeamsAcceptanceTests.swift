import Clocks
import Domain
import Foundation
import TestSupport
import Testing

@testable import App

/// Whole commands in process, through the composition root, with its seams injected: an
/// HTTP client over an in-memory backend the test controls, and for push an immediate clock.
/// Failures that take real time over HTTP (a 15 s time-out, a month-old session) are seen
/// here at once.
@Suite(
  .timeLimit(.minutes(2)),
  .enabled(if: Keyring.shouldTest, "needs a Secret Service (CI=true makes this a failure)"))
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
    let app = try AppRunner.inProcess(
      CompositionSeams(httpClient: client, clock: ImmediateClock()))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    client.fail("POST /vendor/register", with: .timedOut(seconds: 15))

    let on = try await app.run(["push", "on", "--allow-notifications"])
    let status = try await app.run(["push", "status", "--json"])

    #expect(on.status == 1)
    #expect(on.stderr.contains("no answer within 15 s"), "\(on.stderr)")
    #expect(on.stderr.contains("Waiting 3 s…"), "the wait is still taken, on the injected clock")
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
}
