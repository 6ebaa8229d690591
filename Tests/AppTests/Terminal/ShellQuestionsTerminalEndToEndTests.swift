import Foundation
import TestSupport
import Testing

/// The questions commands ask at the shell (a username, a password, a name, `[y/N]`, the
/// nested `prepare>`) are the line editor's, on a real pseudo-terminal: Ctrl-D cancels only
/// the question however often it is pressed, Ctrl-C cancels it, keys typed while a command
/// runs wait for the next prompt, and a resize is followed.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellQuestionsTerminalEndToEndTests {
  private static let ctrlA = "\u{1}"
  private static let ctrlC = "\u{3}"
  private static let threeCtrlDs = "\u{4}\u{4}\u{4}"
  private static let tokenLine = "Token: kept in the"

  @Test func ctrlDThreeTimes_atEachQuestion_cancelsTheQuestionAndNothingMore() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let terminal = try await Self.signedOutShell(app)

    terminal.type("login demo\r")
    try await terminal.waitUntil("the password question") { $0.hasSuffix("Password for demo: ") }
    terminal.type(Self.threeCtrlDs)
    try await terminal.waitForPrompt(after: "Password for demo:")
    terminal.type("login\r")
    try await terminal.waitUntil("the username question") { $0.hasSuffix("Username: ") }
    terminal.type(Self.threeCtrlDs)
    try await terminal.waitForPrompt(after: "Username:")
    terminal.type("signup\r")
    try await terminal.waitUntil("sign-up's username") { $0.hasSuffix("Username: ") }
    terminal.type("newbie\r")
    try await terminal.waitUntil("the name question") { $0.hasSuffix("Your name: ") }
    terminal.type(Self.threeCtrlDs)
    try await terminal.waitForPrompt(after: "Your name:")

    try await Self.signIn(terminal)
    terminal.type("prepare --virtual-clock\r")
    try await terminal.waitUntil("the nested prompt") { $0.hasSuffix("prepare> ") }
    terminal.type(Self.threeCtrlDs)
    try await terminal.waitForPrompt(after: "Preparation ended")
    terminal.type("push on\r")
    try await terminal.waitUntil("the permission question") { $0.hasSuffix("[y/N] ") }
    terminal.type(Self.threeCtrlDs)
    try await terminal.waitForPrompt(after: "[y/N]")

    // Still the same shell, signed in: nothing above ended it.
    terminal.type("session\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    terminal.type("quit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(!terminal.screen.contains("demo-password"), "the password is not echoed")
    #expect(!terminal.screen.contains("Signed in as newbie"), "the cancelled sign-up made nobody")
  }

  /// `[y/N]`: the capital N is what Ctrl-D answers. Said as the person's no, not as an error,
  /// and in the shell's words: its `push on` asks again, where the command line would name
  /// `--allow-notifications`, a flag the shell's `push` refuses.
  @Test func ctrlD_atAYesNoQuestion_isANo_saidAsOne_andTheShellsPushAsksAgain() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let terminal = try await Self.signedOutShell(app)
    try await Self.signIn(terminal)

    terminal.type("push on\r")
    try await terminal.waitUntil("the permission question") { $0.hasSuffix("[y/N] ") }
    terminal.type("\u{4}")
    try await terminal.waitForPrompt(after: "Notifications were not allowed on this device.")
    let declined = terminal.screen
    terminal.type("push on\r")
    try await terminal.waitUntil("the question, again") {
      $0.components(separatedBy: "[y/N] ").count == 3
    }
    terminal.type("y\r")
    try await terminal.waitForPrompt(after: "Push notifications are on.")
    terminal.type("clear\r")
    try await terminal.waitUntil("the screen cleared") { $0.contains("\u{1B}[H\u{1B}[2J") }
    terminal.type("quit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    let answer = declined[declined.range(of: "[y/N]")!.upperBound...]
    #expect(answer.contains("Push notifications are off."), "\(answer.debugDescription)")
    #expect(!answer.contains("error:"), "a no is not an error: \(answer.debugDescription)")
    #expect(!terminal.screen.contains("--allow-notifications"), "no flag the shell refuses")
  }

  @Test func ctrlC_atAQuestion_cancelsIt_andCancelsTheCommandThatAsked() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let terminal = try await Self.signedOutShell(app)

    terminal.type("login demo\r")
    try await terminal.waitUntil("the password question") { $0.hasSuffix("Password for demo: ") }
    terminal.type("demo-pass" + Self.ctrlC)
    try await terminal.waitForPrompt(after: "Password for demo:")
    try await Self.signIn(terminal)
    terminal.type("push on\r")
    try await terminal.waitUntil("the permission question") { $0.hasSuffix("[y/N] ") }
    terminal.type(Self.ctrlC)
    try await terminal.waitForPrompt(after: "Interrupted (Ctrl-C).")
    terminal.type("session\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    terminal.type("quit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(!terminal.screen.contains("demo-pass"), "nothing of a password is echoed")
    #expect(!terminal.screen.contains("Push notifications are on"), "the change was cancelled")
  }

  @Test func keysTypedWhileACommandRuns_waitForTheNextPrompt_unechoed() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let terminal = try app.onTerminal([])
    try await terminal.waitForPrompt(after: "Signed in as demo")

    terminal.type("push\r")
    try await terminal.waitUntil("push's 3 s wait") { $0.contains("Waiting 3 s") }
    terminal.type("session")
    try await terminal.waitUntil("the type-ahead on the next prompt") {
      $0.hasSuffix("push> session")
    }
    terminal.type("\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    terminal.type("quit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    let spinner = try #require(terminal.screen.range(of: "Waiting 3 s"))
    let answer = try #require(terminal.screen.range(of: "Push notifications are"))
    #expect(
      !terminal.screen[spinner.upperBound..<answer.lowerBound].contains("session"),
      "not echoed into the spinner")
  }

  @Test func aResize_isFollowed_andTheNestedPromptHasItsOwnHistoryAndTab() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let terminal = try app.onTerminal([])
    try await terminal.waitForPrompt(after: "Signed in as demo")

    terminal.type("ession")
    try await terminal.waitUntil("the half-typed line") { $0.hasSuffix("> ession") }
    let before = terminal.screen.count
    terminal.resize(columns: 40)
    try await terminal.waitUntil("the line drawn again for the new width") { screen in
      let redrawn = screen.dropFirst(before)
      return redrawn.contains("\u{1B}[J") && redrawn.hasSuffix("> ession")
    }
    terminal.type(Self.ctrlA + "s\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)

    terminal.type("prepare --virtual-clock\r")
    try await terminal.waitUntil("the nested prompt") { $0.hasSuffix("prepare> ") }
    terminal.type("head\t")
    try await terminal.waitUntil("Tab completes the preparation's word") {
      $0.hasSuffix("headphones ")
    }
    terminal.type("on\r")
    try await terminal.waitUntil("the headphones") { $0.contains("Headphones: connected.") }
    terminal.type("\u{1B}[A")
    try await terminal.waitUntil("Up recalls the preparation's line") {
      $0.hasSuffix("prepare> headphones on")
    }
    terminal.type("\u{15}quit\r")
    try await terminal.waitForPrompt(after: "Preparation ended")
    terminal.type("quit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    let history = try String(
      contentsOf: app.dataFolder.appendingPathComponent("shell-history"), encoding: .utf8)
    #expect(!history.contains("headphones"), "the preparation's lines are its own: \(history)")
  }

  /// The shell of a new data folder, at its signed-out prompt.
  private static func signedOutShell(_ app: AppRunner) async throws -> PseudoTerminal {
    let terminal = try app.onTerminal([])
    try await terminal.waitUntil("the signed-out prompt") {
      $0.hasSuffix("embedded (signed out)> ")
    }
    return terminal
  }

  /// Signs in as demo at the signed-out prompt, and waits for the home's.
  private static func signIn(_ terminal: PseudoTerminal) async throws {
    terminal.type("login demo\r")
    try await terminal.waitUntil("the password question") { $0.hasSuffix("Password for demo: ") }
    terminal.type("demo-password\r")
    try await terminal.waitForPrompt(after: "Signed in as demo")
  }
}
