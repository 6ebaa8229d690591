import Foundation
import TestSupport
import Testing

/// `app` as a person uses it at a terminal: libedit's history and Tab completion, banners
/// arriving while a line is half typed, Ctrl-C back to the prompt, Ctrl-D to leave. Keys are
/// typed on a real pseudo-terminal and what they did is read back from the screen.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellTerminalEndToEndTests {
  private static let up = "\u{1B}[A"
  private static let ctrlC = "\u{3}"
  private static let ctrlD = "\u{4}"
  private static let tokenLine = "Token: kept in the"

  @Test func history_isRecalledInTheNextSession_andNeverHoldsThePassword() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let first = try app.onTerminal([])
    try await first.waitUntil("the signed-out prompt") { $0.hasSuffix("embedded (signed out)> ") }
    first.type("login demo\r")
    try await first.waitUntil("the password question") { $0.hasSuffix("Password for demo: ") }
    first.type("demo-password\r")
    try await first.waitForPrompt(after: "Signed in as demo")
    first.type("session\r")
    try await first.waitForPrompt(after: Self.tokenLine)
    first.type(Self.ctrlD)
    let firstEnded = await first.exit()
    #expect(firstEnded.status == 0, "\(first.screen.debugDescription)")
    #expect(!first.screen.contains("demo-password"), "the password is not echoed")

    let history = app.dataFolder.appendingPathComponent("shell-history")
    #expect(try String(contentsOf: history, encoding: .utf8) == "login demo\nsession\n")
    let mode = try FileManager.default.attributesOfItem(atPath: history.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
    #expect(app.filesContaining("demo-password").isEmpty, "no password on disk")

    let second = try app.onTerminal([])
    try await second.waitUntil("the home") { $0.contains("Signed in as demo") }
    try await second.waitForPrompt(after: "Signed in as demo")
    second.type(Self.up + "\r")
    try await second.waitForPrompt(after: Self.tokenLine)
    second.type(Self.ctrlD)
    #expect(await second.exit().status == 0, "\(second.screen.debugDescription)")
  }

  @Test func tab_completesCommands_andTheIdsOfTheLikesOnScreen() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let listed = try await app.run(["likes", "--json"])
    guard case .array(let items) = JSONShapes.document(listed.stdout)?["items"],
      let id = items.first?["id"]?.string
    else {
      Issue.record("no likes listed: \(listed.stdout) \(listed.stderr)")
      return
    }

    let terminal = try app.onTerminal([])
    try await terminal.waitForPrompt(after: "Signed in as demo")
    terminal.type("lik\t")
    try await terminal.waitUntil("the common start of like and likes") { $0.hasSuffix("like") }
    terminal.type("s\r")
    try await terminal.waitForPrompt(after: "Liked you: page 1")
    terminal.type("ses\t\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    terminal.type("skip \(id.prefix(5))\t\r")
    try await terminal.waitForPrompt(after: "Skipped")
    terminal.type(Self.ctrlD)
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(!terminal.screen.contains("too short"), "the id was completed to 8 characters")
  }

  @Test func aBannerArrivesWhileALineIsHalfTyped_andTheLineIsKeptIntact() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let terminal = try app.onTerminal([], environment: ["APP_DEMO_LIKE_SECONDS": "1"])
    try await terminal.waitForPrompt(after: "Signed in as demo")
    terminal.type("sess")
    try await terminal.waitUntil("a new like after the line was half typed") { screen in
      guard let typed = screen.range(of: "> sess") else { return false }
      return screen[typed.upperBound...].contains("New like:")
    }
    try await terminal.waitUntil("the badge in the prompt") { $0.contains("new)> sess") }
    terminal.type("ion\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    // Push's 3 s wait turns a spinner: a like a second lands on it while it does.
    terminal.type("push\r")
    try await terminal.waitUntil("a new like while the spinner turns") { screen in
      guard let waiting = screen.range(of: "Waiting 3 s") else { return false }
      return screen[waiting.upperBound...].contains("New like:")
    }
    try await terminal.waitForPrompt(after: "Push notifications are")
    terminal.type(Self.ctrlD)
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    let lines = TerminalScreen.lines(of: terminal.screen)
    #expect(
      lines.filter { $0.contains("New like:") }.allSatisfy { $0.hasPrefix("New like:") },
      "a banner is a line of its own, above the prompt or the spinner: \(lines)")
  }

  @Test func thePromptsBadge_agreesWithThePage_assoonAsPageOneIsShown() async throws {
    let now = TestNow()
    let served = try await ServedBackend.start(likeInterval: 1...1, now: now)
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)

    let terminal = try app.onTerminal(["--api-url", served.apiURL])
    try await terminal.waitForPrompt(after: "Signed in as demo")
    // The watch waits on the server (its first poll took the time the next like is due)...
    try await served.waitForTheWatchsWaitingPoll()
    now.advance(by: 1)  // ...and a like is due; no other comes while the time stands still
    try await terminal.waitUntil("the badge in the prompt") { $0.hasSuffix("new)> ") }
    terminal.type("likes\r")
    try await terminal.waitForPrompt(after: "Liked you: page 1")
    let prompt = TerminalScreen.lines(of: terminal.screen).last ?? ""
    terminal.type(Self.ctrlD)
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(terminal.screen.contains("Unread: 1 new like"), "the page's footer counts it")
    #expect(!prompt.contains("new)"), "the page shows the like: \(prompt)")
  }

  @Test func ctrlC_cancelsThePushWait_andReturnsToThePrompt() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let terminal = try app.onTerminal([])
    try await terminal.waitForPrompt(after: "Signed in as demo")
    terminal.type("push\r")
    try await terminal.waitUntil("the 3 s wait") { $0.contains("Waiting 3 s") }
    terminal.type(Self.ctrlC)
    try await terminal.waitForPrompt(after: "Interrupted (Ctrl-C)")
    terminal.type("session\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    terminal.type(Self.ctrlD)
    let ended = await terminal.exit()

    #expect(ended.signal == nil && ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(!terminal.screen.contains("Push notifications are"), "the check was cancelled")
  }

  @Test func aRealtimeWatchThatStopsForGood_saysSoOnce_andTheShellGoesOn() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    // A request the server calls wrong ends the watch; anything else is tried again
    // (ShellServerLifeTerminalEndToEndTests).
    served.answer("GET /events", status: 400, body: #"{"error":"invalid_request"}"#)

    let terminal = try app.onTerminal(["--api-url", served.apiURL])
    try await terminal.waitUntil("the watch's end, said") {
      $0.contains("Realtime updates stopped")
    }
    terminal.type("session\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    // Another command, whose answer is its own: a second `session` would leave the first
    // one's prompt on screen as the one to wait for.
    terminal.type("help\r")
    try await terminal.waitForPrompt(after: "Tab completes")
    terminal.type(Self.ctrlD)
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    let said = terminal.screen.components(separatedBy: "Realtime updates stopped").count - 1
    #expect(said == 1, "said once: \(terminal.screen.debugDescription)")
  }
}
