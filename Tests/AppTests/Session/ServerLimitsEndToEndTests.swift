import Foundation
import TestSupport
import Testing

@testable import App

/// The limits every server shares (API.md), as the app reports them from any server: a 429
/// on sign-in says how long to wait and is never retried; a 413 says the message is too
/// large, in the server's words; a 503 on a read is asked once more after `Retry-After`, a 503
/// on a write is not. `--json` carries the code and the wait.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ServerLimitsEndToEndTests {
  @Test func aThrottledSignIn_saysHowLongToWait_andIsNotRetried() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    served.answer(
      "POST /oauth/token", status: 429,
      body: #"{"error":"too_many_attempts","error_description":"Too many failed sign-ins"}"#,
      headers: ["Retry-After": "42"])
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let text = try await app.run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"],
      stdin: "demo-password")
    let json = try await app.run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin", "--json"],
      stdin: "demo-password")

    #expect(text.status == 1)
    #expect(text.stderr.contains("error: Too many attempts: try again in 42 s."), "\(text.stderr)")
    #expect(served.requests.filter { $0 == "POST /oauth/token" }.count == 2, "one per command")
    let error = try #require(try document(json.stdout)["error"] as? [String: Any])
    #expect(error["code"] as? String == "too_many_attempts")
    #expect(error["retryAfter"] as? Int == 42)
    #expect(await app.keyring.accounts(server: served.apiURL).isEmpty)
  }

  @Test func theEmbeddedServersOwnThrottle_reachesThePerson() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    var last: AppRunner.Result?
    for _ in 1...7 {
      last = try await app.run(
        ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"],
        stdin: "wrong-password")
    }

    let throttled = try #require(last)
    #expect(throttled.status == 1)
    #expect(
      throttled.stderr.contains("error: Too many attempts: try again in"), "\(throttled.stderr)")
  }

  @Test func anOversizeMessage_isTooLarge_inTheServersWords() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer(
      "POST /messages", status: 413,
      body: #"{"error":"body_too_large","error_description":"the limit is 16 MiB"}"#)

    let result = try await app.run(
      [
        "messages", "send", "--api-url", served.apiURL, "--to", "Alice", "--subject", "Hi",
        "--message", "Hello",
      ])

    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "error: The message is too large for the server (the server says: the limit is 16 MiB)."),
      "\(result.stderr)")
  }

  @Test func a503OnARead_isAskedOnceMore_afterTheWait() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let clock = RecordingClock()
    let app = try AppRunner.inProcess(CompositionSeams(clock: clock))
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer(
      "GET /me", status: 503, body: #"{"error":"unavailable"}"#, headers: ["Retry-After": "7"])

    let signingIn = served.requests.filter { $0 == "GET /me" }.count
    let running = Task { () async throws -> AppRunner.Result in
      try await app.run(["session", "--api-url", served.apiURL])
    }
    try await waitUntil("the app waits for the server's 7 s") { clock.isAsleep(sleeps: 1) }
    clock.advance(by: .seconds(6))
    let beforeTheWait = served.requests.filter { $0 == "GET /me" }.count
    #expect(clock.base.nextDeadline != nil, "at 6 s the app still waits")
    clock.advance(by: .seconds(1))
    let result = try await running.value

    #expect(beforeTheWait == signingIn + 1)
    #expect(served.requests.filter { $0 == "GET /me" }.count == signingIn + 2)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "The server is unavailable (it is busy or shutting down): try again in 7 s."),
      "\(result.stderr)")
  }

  @Test func a503OnAWrite_isNotSentAgain() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess(CompositionSeams(clock: InstantClock()))
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer(
      "POST /messages", status: 503, body: #"{"error":"unavailable"}"#,
      headers: ["Retry-After": "1"])

    let result = try await app.run(
      [
        "messages", "send", "--api-url", served.apiURL, "--to", "Alice", "--subject", "Hi",
        "--message", "Hello", "--json",
      ])

    #expect(result.status == 1)
    #expect(served.requests.filter { $0 == "POST /messages" }.count == 1)
    let error = try #require(try document(result.stdout)["error"] as? [String: Any])
    #expect(error["code"] as? String == "server_unavailable")
    #expect(error["retryAfter"] as? Int == 1)
  }

  private func document(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }
}
