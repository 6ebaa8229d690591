import Foundation
import TestSupport
import Testing

@testable import App

/// `app < session.txt`: the shell reading a script. Each command is echoed after its
/// prompt, so stdout reads as a transcript; an error names its line; the exit code is the
/// first failing line's. Run in process, through `AppMain.run`, as the binary runs it.
@Suite(
  .timeLimit(.minutes(2)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellTranscriptEndToEndTests {
  @Test func aScriptedSession_signsUp_pagesThroughLikes_andLogsOut() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    let script = """
      signup
      alice
      Alice Liddell
      correct horse battery
      likes
      next
      prev
      session
      logout
      quit
      """

    let result = try await app.run([], stdin: script)

    #expect(result.status == 0, "\(result.stderr)")
    let transcript = result.stdout
    let expectedInOrder = [
      "embedded (signed out)> signup\n",
      "alice@embedded> likes\n", "Liked you: page 1, items 1–10", "More: likes 2",
      "alice@embedded likes> next\n", "Liked you: page 2, items 11–20",
      "alice@embedded likes> prev\n", "Liked you: page 1, items 1–10",
      "alice@embedded likes> session\n", "Signed in as alice (Alice Liddell)",
      "alice@embedded likes> logout\n",
      "embedded (signed out)> quit\n",
    ]
    #expect(Self.appearInOrder(expectedInOrder, in: transcript), "\(transcript)")
    #expect(result.stdout.contains("Signed out alice"), "\(result.stdout)")
    #expect(!transcript.contains("correct horse") && !result.stderr.contains("correct horse"))
    #expect(app.filesContaining("correct horse").isEmpty, "no password on disk")
    #expect(
      !FileManager.default.fileExists(
        atPath: app.dataFolder.appendingPathComponent("shell-history").path),
      "a script is not history")
  }

  @Test func anErrorNamesItsLine_theRestStillRuns_andTheExitCodeIsTheFirstFailure() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    let script = """
      # signed out: a home command is refused (4)
      likes
      login demo
      demo-password
      lkes
      page 0
      like 00000000
      likes 2

      """

    let result = try await app.run([], stdin: script)

    #expect(result.status == 4, "the first failing line's code: \(result.stderr)")
    let errors = result.stderr
    #expect(errors.contains("line 2: error: Nobody is signed in.\n"), "\(errors)")
    #expect(errors.contains("line 5: error: 'lkes' is not a command.\n"), "\(errors)")
    #expect(errors.contains("hint: Did you mean 'likes'?"), "\(errors)")
    #expect(errors.contains("line 6: error: '0' is not a page"), "\(errors)")
    #expect(errors.contains("line 7: error: "), "an unknown like: \(errors)")
    #expect(
      result.stdout.contains("demo@embedded> likes 2\n")
        && result.stdout.contains("Liked you: page 2"), "later lines still ran: \(result.stdout)")
    #expect(!result.stdout.contains("# signed out"), "comments are not commands")
  }

  @Test func aUsageErrorFirst_makesTheExitCode64() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run([], stdin: "frobnicate\nhelp\n")

    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("line 1: error: 'frobnicate' is not a command."))
    #expect(result.stderr.contains("login [USERNAME]"), "help still ran: \(result.stderr)")
  }

  @Test func aSessionRejectedMidScript_returnsToTheOnboarding_inTheSameProcess() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("GET /messages", status: 401, body: #"{"error":"invalid_token"}"#)

    let result = try await app.run(
      ["--api-url", served.apiURL], stdin: "session\nmessages\nsession\nlogin demo\ndemo-password\n"
    )

    let host = "127.0.0.1:\(served.server.port)"
    #expect(result.status == 4, "\(result.stderr)")
    #expect(
      Self.appearInOrder(
        [
          "demo@\(host)> session\n", "demo@\(host)> messages\n",
          "\(host) (signed out)> session\n", "\(host) (signed out)> login demo\n",
        ], in: result.stdout), "\(result.stdout)")
    #expect(result.stderr.contains("line 2: error: "), "\(result.stderr)")
    #expect(result.stderr.contains("please sign in again"), "\(result.stderr)")
    #expect(result.stderr.contains("line 3: error: Nobody is signed in."), "\(result.stderr)")
    #expect(
      result.stderr.contains("Signed in as demo"), "signed in again: \(result.stderr)")
  }

  @Test func theHome_reachesMessagesPushAndThePreparation_andComesBack() async throws {
    // Push's 3 s wait passes at once.
    let app = try AppRunner.inProcess(CompositionSeams(clock: InstantClock()))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let script = """
      messages Zoë
      send bob "Lunch?" See you at noon.
      send bob "Later?" Or at one.
      push
      prepare --virtual-clock
      status
      quit
      mutuals
      """

    let result = try await app.run([], stdin: script)

    #expect(result.status == 0, "\(result.stderr)")
    let transcript = result.stdout
    #expect(
      Self.appearInOrder(
        [
          "demo@embedded> messages Zoë\n", "Meet at the café?",
          "demo@embedded messages> send bob \"Lunch?\" See you at noon.\n", "See you at noon.",
          "demo@embedded messages> send bob \"Later?\" Or at one.\n", "Or at one.",
          "demo@embedded messages> push\n", "Push notifications are off.",
          "demo@embedded push> prepare --virtual-clock\n", "On screen: [1/3] Headphones",
          "Preparation ended", "demo@embedded> mutuals\n",
          "No mutual matches yet: `like ID` likes somebody back.",
        ], in: transcript), "\(transcript)")
  }

  @Test func theServerDownAtLaunch_opensTheHomeOffline_onWhatThisMachineKeeps() async throws {
    let served = try await ServedBackend.start()
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    _ = try await app.run(["likes", "--api-url", served.apiURL])
    await served.stop()

    let result = try await app.run(
      ["--api-url", served.apiURL], stdin: "session\nlikes\nlikes 2\nquit\n")

    let host = "127.0.0.1:\(served.server.port)"
    #expect(result.status == 1, "page 2 was never cached: \(result.stderr)")
    #expect(result.stderr.contains("warning: Offline: The server is unreachable"))
    #expect(
      Self.appearInOrder(
        [
          "demo@\(host) offline> session\n", "Signed in as demo on \(served.apiURL), offline",
          "Token: kept in the kernel keyring", "demo@\(host) offline> likes\n",
          "Liked you: page 1, items 1–10", "demo@\(host) offline likes> likes 2\n",
        ], in: result.stdout), "\(result.stdout)")
    #expect(result.stderr.contains("line 3: error: The server is unreachable"), "\(result.stderr)")
  }

  @Test func anOfflineHome_goesBackOnlineOnce_whenTheServerAnswersAgain() async throws {
    let client = try FaultInjectingHTTPClient()
    let app = try AppRunner.inProcess(CompositionSeams(httpClient: client))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    // The launch's check finds the server out of reach; the next one finds it back.
    client.fail("GET /me", with: .unreachable(reason: "connection refused"), times: 1)

    let result = try await app.run([], stdin: "likes\nsession\nquit\n")

    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      Self.appearInOrder(
        ["demo@embedded offline> likes\n", "Liked you: page 1", "demo@embedded likes> session\n"],
        in: result.stdout), "\(result.stdout)")
    let backOnline =
      result.stdout.components(separatedBy: "Back online:").count - 1
      + result.stderr.components(separatedBy: "Back online:").count - 1
    #expect(backOnline == 1, "said once: \(result.stdout) \(result.stderr)")
  }

  @Test func signUp_asksAgainOnlyForTheAnswerThatWasWrong() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let script = """
      logout
      signup
      Bad Name
      demo
      Dee Mo
      short
      long enough password
      dee
      session
      quit
      """

    let result = try await app.run([], stdin: script)

    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      Self.appearInOrder(
        [
          "line 3: error: A username is 3 to 32 characters",
          "line 6: error: A password needs at least 8 characters.",
          "line 7: error: The username demo is taken.",
          "hint: Choose another one, or sign in with `login`.",
          "Signed in as dee (Dee Mo)",
        ], in: result.stderr), "\(result.stderr)")
    #expect(result.stdout.contains("dee@embedded> session\n"), "\(result.stdout)")
  }

  @Test func malformedJSONFromTheServer_isALineError_andTheSessionGoesOn() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("GET /messages", status: 200, body: "{not json")

    let result = try await app.run(["--api-url", served.apiURL], stdin: "messages\nsession\n")

    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("line 1: error: "), "\(result.stderr)")
    #expect(
      result.stdout.contains("demo@127.0.0.1:\(served.server.port)> session\n"),
      "still signed in, and the prompt names the screen shown, not the one that failed: \(result.stdout)"
    )
  }

  @Test func theShell_takesNoJSON() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run(["--json"], stdin: "")

    #expect(result.status == 64)
    #expect(JSONShapes.document(result.stdout)?["error"]?["code"]?.string == "usage")
    #expect(result.stderr.contains("The shell answers in text"), "\(result.stderr)")
  }

  /// Whether every text in `texts` is in `transcript`, each after the one before.
  static func appearInOrder(_ texts: [String], in transcript: String) -> Bool {
    var rest = transcript[...]
    for text in texts {
      guard let range = rest.range(of: text) else { return false }
      rest = rest[range.upperBound...]
    }
    return true
  }
}
