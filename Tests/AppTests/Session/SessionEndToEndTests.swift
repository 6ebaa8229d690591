import Foundation
import TestSupport
import Testing

@testable import App

@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct SessionEndToEndTests {
  @Test func session_exits4_whenSignedOut_withJSONForScripts() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let text = try await app.run(["session"])
    let json = try await app.run(["session", "--json"])

    #expect(text.status == 4)
    #expect(text.stdout.isEmpty)
    #expect(text.stderr.contains("error: You are not signed in to the embedded backend"))
    #expect(text.stderr.contains("hint: Run `app login` to sign in."))
    #expect(json.status == 4)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let error = try #require(document["error"] as? [String: Any])
    #expect(error["code"] as? String == "not_signed_in")
  }

  @Test func session_showsWhoWhereAndWhichKeyringItem_neverTheToken() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    let token = try #require(await app.keyring.token(server: served.apiURL, account: "demo"))

    let text = try await app.run(["session", "--api-url", served.apiURL])
    let json = try await app.run(["session", "--api-url", served.apiURL, "--json"])

    #expect(text.status == 0)
    #expect(
      text.stdout == """
        Signed in as demo (Demo User) on \(served.apiURL).
        Token: kept in the Secret Service (libsecret) item with service=app server=\(served.apiURL) account=demo

        """)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(document["signedIn"] as? Bool == true)
    #expect(document["username"] as? String == "demo")
    #expect(document["server"] as? String == served.apiURL)
    for output in [text.stdout, text.stderr, json.stdout, json.stderr] {
      #expect(!output.contains(token))
    }
    #expect(served.requests == ["POST /oauth/token", "GET /me", "GET /me", "GET /me"])
  }

  @Test func anExpiredSession_isRemoved_andSaysSo_withExit4() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer(
      "GET /me", status: 401, body: #"{"error":"invalid_token","error_description":"expired"}"#)

    let result = try await app.run(["session", "--api-url", served.apiURL])

    #expect(result.status == 4)
    #expect(
      result.stderr.contains(
        "error: The session of demo has expired or was revoked; it was removed."))
    #expect(await app.keyring.accounts(server: served.apiURL).isEmpty)
  }

  @Test(arguments: [
    (
      500, "<html><body><h1>500 Internal Server Error</h1></body></html>", "text/html",
      "error: The server answered HTTP 500."
    ),
    (
      503, #"{"error":"maintenance","error_description":"back at noon"}"#, "application/json",
      "error: The server is unavailable (back at noon): try again shortly."
    ),
    (
      200, "{not json", "application/json",
      "error: The server's answer could not be read: the profile answer is not a UserProfile object."
    ),
    (200, "", "application/json", "error: The server's answer could not be read"),
  ])
  func aFailingServer_keepsTheSession_andSaysWhatHappened(
    status: Int, body: String, type: String, message: String
  ) async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    // A 503 is asked once more after a wait: on this clock, at once.
    let app = try AppRunner.inProcess(CompositionSeams(clock: InstantClock()))
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("GET /me", status: status, body: body, contentType: type)

    let result = try await app.run(["session", "--api-url", served.apiURL])

    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(
      await app.keyring.accounts(server: served.apiURL) == ["demo"],
      "a failing server must not end the session")
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }

  @Test func aServerThatIsDown_keepsTheSession_exit1() async throws {
    let served = try await ServedBackend.start()
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    await served.stop()

    let result = try await app.run(["session", "--api-url", served.apiURL])

    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "error: The server is unreachable: could not connect to 127.0.0.1:\(served.server.port)."))
    #expect(result.stderr.contains("hint: Check the server address"))
    #expect(await app.keyring.accounts(server: served.apiURL) == ["demo"])
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }

  @Test func signingInToAServerThatIsDown_exits1_andStoresNothing() async throws {
    // A path of its own, as every `ServedBackend` has: the keyring keeps sessions by URL,
    // and an `app serve` child earlier in the run may have left one on this port.
    let port = try await LoopbackHTTPServer.closedPort()
    let path = ServedBackend.uniqueAPIPath().joined(separator: "/")
    let apiURL = "http://127.0.0.1:\(port)/\(path)"
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run(
      ["login", "--api-url", apiURL, "--username", "demo", "--password-stdin"],
      stdin: "demo-password")

    #expect(result.status == 1)
    #expect(result.stderr.contains("error: The server is unreachable"))
    #expect(await app.keyring.accounts(server: apiURL).isEmpty)
  }

  @Test func theAPIURLComesFromTheEnvironment_whenNoOptionIsGiven() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "demo-password",
      environment: ["APP_API_URL": served.apiURL + "/"])

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("on \(served.apiURL)."))
    #expect(served.requests == ["POST /oauth/token", "GET /me"])
    _ = try await app.run(["logout", "--local"], environment: ["APP_API_URL": served.apiURL])
  }

  @Test func verboseLogsRequests_butNeverTheToken() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let login = try await app.run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin", "--verbose"],
      stdin: "demo-password")
    let token = try #require(await app.keyring.token(server: served.apiURL, account: "demo"))
    let session = try await app.run(["session", "--api-url", served.apiURL, "--verbose"])

    #expect(login.stderr.contains("→ POST \(served.path)/oauth/token"), "\(login.stderr)")
    #expect(session.stderr.contains("← 200 GET \(served.path)/me"), "\(session.stderr)")
    for output in [login.stderr, session.stderr] {
      #expect(!output.contains(token))
      #expect(!output.contains("demo-password"))
    }
    _ = try await app.run(["logout", "--api-url", served.apiURL])
  }
}
