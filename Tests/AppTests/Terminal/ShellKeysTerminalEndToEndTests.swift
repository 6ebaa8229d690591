import Foundation
import TestSupport
import Testing

/// The keys a terminal person expects, on a real pseudo-terminal: Ctrl-D pressed again and
/// again to be sure a question went never quits the shell, and Ctrl-Z suspends it under a
/// job-control shell, `fg` bringing back the prompt and the half-typed line.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: Keyring.shouldTest, "needs a Secret Service (CI=true makes this a failure)"))
struct ShellKeysTerminalEndToEndTests {
  private static let ctrlD = "\u{4}"
  private static let ctrlZ = "\u{1A}"
  private static let tokenLine = "Token: kept in the"

  /// Three presses, as a person makes them: the gap is their rhythm, the input of the test.
  /// Each press after the first comes less than the shell's one second after the one before.
  @Test(arguments: [100, 300, 600])
  func ctrlDThreeTimes_spacedOut_atEveryQuestion_neverQuits(gap milliseconds: Int)
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let terminal = try app.onTerminal([])
    try await terminal.waitUntil("the signed-out prompt") {
      $0.hasSuffix("embedded (signed out)> ")
    }
    let pressThrice = { (after: String) in
      try await Self.pressCtrlDThrice(on: terminal, gap: .milliseconds(milliseconds))
      try await terminal.waitForPrompt(after: after)
    }

    terminal.type("login\r")
    try await terminal.waitUntil("the username question") { $0.hasSuffix("Username: ") }
    try await pressThrice("Username:")
    terminal.type("login demo\r")
    try await terminal.waitUntil("the password question") { $0.hasSuffix("Password for demo: ") }
    try await pressThrice("Password for demo:")
    terminal.type("signup\r")
    try await terminal.waitUntil("sign-up's username") { $0.hasSuffix("Username: ") }
    terminal.type("newbie\r")
    try await terminal.waitUntil("the name question") { $0.hasSuffix("Your name: ") }
    try await pressThrice("Your name:")

    terminal.type("login demo\r")
    try await terminal.waitUntil("the password question") { $0.hasSuffix("Password for demo: ") }
    terminal.type("demo-password\r")
    try await terminal.waitForPrompt(after: "Signed in as demo")
    terminal.type("prepare --virtual-clock\r")
    try await terminal.waitUntil("the nested prompt") { $0.hasSuffix("prepare> ") }
    try await pressThrice("Preparation ended")
    terminal.type("push on\r")
    try await terminal.waitUntil("the permission question") { $0.hasSuffix("[y/N] ") }
    try await pressThrice("[y/N]")

    terminal.type("session\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    terminal.type("quit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(terminal.screen.contains(Self.tokenLine), "the same shell, still signed in")
  }

  @Test func ctrlZ_suspendsTheShell_andFg_bringsBackThePromptAndTheHalfTypedLine()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let terminal = try app.bashOnTerminal()
    try await terminal.waitUntil("bash's prompt") { $0.hasSuffix("$ ") }
    terminal.type("\"$APP\"\r")
    try await terminal.waitForPrompt(after: "Signed in as demo")
    terminal.type("sess")
    try await terminal.waitUntil("the half-typed line") { $0.hasSuffix("> sess") }

    terminal.type(Self.ctrlZ)
    try await terminal.waitUntil("the job stopped, and bash's prompt") { screen in
      guard let stopped = screen.range(of: "Stopped", options: .backwards) else { return false }
      return screen[stopped.upperBound...].hasSuffix("$ ")
    }
    terminal.type(
      "stty -a | tr ' ' '\\n' | grep -x -e isig -e icanon -e echo | sort | tr '\\n' ' '\r")
    try await terminal.waitUntil("the terminal as bash has it") { $0.contains("echo icanon isig") }
    terminal.type("fg\r")
    try await terminal.waitUntil("the prompt and the half-typed line again") { screen in
      guard let resumed = screen.range(of: "fg\r\n", options: .backwards) else { return false }
      return TerminalScreen.lines(of: String(screen[resumed.upperBound...])).last?.hasSuffix(
        "> sess") == true
    }
    terminal.type("ion\r")
    try await terminal.waitForPrompt(after: Self.tokenLine)
    terminal.type(Self.ctrlD)
    try await terminal.waitUntil("bash's prompt after the shell quit") { screen in
      guard let token = screen.range(of: Self.tokenLine, options: .backwards) else { return false }
      return screen[token.upperBound...].hasSuffix("$ ")
    }
    terminal.type("exit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
  }

  private static func pressCtrlDThrice(on terminal: PseudoTerminal, gap: Duration) async throws {
    for press in 0..<3 {
      if press > 0 { try await Task.sleep(for: gap) }
      terminal.type(ctrlD)
    }
  }
}
