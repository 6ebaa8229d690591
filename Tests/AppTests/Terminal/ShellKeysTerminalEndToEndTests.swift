import Foundation
import TestSupport
import Testing

/// The keys a terminal person expects, on a real pseudo-terminal: Ctrl-D pressed again and
/// again to be sure a question went never quits the shell, and Ctrl-Z suspends it under a
/// job-control shell, `fg` bringing back the prompt and the half-typed line.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellKeysTerminalEndToEndTests {
  private static let ctrlD = "\u{4}"
  private static let ctrlZ = "\u{1A}"
  private static let tokenLine = "Token: kept in the"

  /// Three presses, as a person makes them: the gap is their rhythm, the input of the test,
  /// typed on a thread of its own (`PseudoTerminal.type(_:gap:)`). Each press after the
  /// first comes less than the shell's one second after the one before.
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

  @Test func signUp_asksForThePasswordTwice_andBothAgainWhenTheyDiffer() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let terminal = try app.onTerminal([])
    try await terminal.waitUntil("the signed-out prompt") {
      $0.hasSuffix("embedded (signed out)> ")
    }

    terminal.type("signup\r")
    try await terminal.waitUntil("the username") { $0.hasSuffix("Username: ") }
    terminal.type("newbie\r")
    try await terminal.waitUntil("the name") { $0.hasSuffix("Your name: ") }
    terminal.type("New Bie\r")
    try await Self.typePasswordTwice("first-secret", "other-secret", time: 1, on: terminal)
    try await terminal.waitUntil("the mismatch said") { $0.contains("are not the same") }
    try await Self.typePasswordTwice("right-secret", "right-secret", time: 2, on: terminal)
    try await terminal.waitForPrompt(after: "Signed in as newbie")
    terminal.type("quit\r")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    #expect(!screen.contains("-secret"), "no password is echoed")
    #expect(screen.components(separatedBy: "Username: ").count == 2, "the username was kept")
    #expect(screen.components(separatedBy: "Password again: ").count == 3)
    let again = try await app.run(
      ["login", "--username", "newbie", "--password-stdin"],
      stdin: "right-secret")
    #expect(again.status == 0, "the account has the password typed twice: \(again.stderr)")
  }

  @Test func appSignup_atATerminal_asksForThePasswordTwice() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let terminal = try app.onTerminal(["signup", "--username", "cli", "--name", "Cli"])

    try await Self.typePasswordTwice("one-secret", "two-secret", time: 1, on: terminal)
    try await terminal.waitUntil("the mismatch said") { $0.contains("are not the same") }
    try await Self.typePasswordTwice("cli-secret", "cli-secret", time: 2, on: terminal)
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(terminal.screen.contains("Signed in as cli"), "\(terminal.screen.debugDescription)")
  }

  /// Answers the new password's two questions, asked for the `time`th time.
  private static func typePasswordTwice(
    _ first: String, _ second: String, time: Int, on terminal: PseudoTerminal
  ) async throws {
    try await terminal.waitUntil("the password, time \(time)") {
      $0.components(separatedBy: "characters): ").count == time + 1
        && $0.hasSuffix("characters): ")
    }
    terminal.type(first + "\r")
    try await terminal.waitUntil("the password again, time \(time)") {
      $0.components(separatedBy: "Password again: ").count == time + 1
        && $0.hasSuffix("Password again: ")
    }
    terminal.type(second + "\r")
  }

  /// As a job of its own, and below a wrapper in the same job (as `scripts/with-keyring`
  /// runs it): the whole job stops, and `fg` brings it back.
  @Test(arguments: [
    #"APP_DEMO_LIKE_SECONDS=1 "$APP""#, #"sh -c 'APP_DEMO_LIKE_SECONDS=1 "$APP"; true'"#,
  ])
  func ctrlZ_suspendsTheShell_andFg_bringsBackThePromptAndTheHalfTypedLine(
    command: String
  ) async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let terminal = try app.bashOnTerminal()
    try await terminal.waitUntil("bash's prompt") { $0.hasSuffix("$ ") }
    terminal.type(command + "\r")
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
    // Realtime goes on after the resume: a banner above the line, which stays as typed.
    try await terminal.waitUntil("a banner after fg, the line kept") { screen in
      guard let resumed = screen.range(of: "fg\r\n", options: .backwards) else { return false }
      let after = String(screen[resumed.upperBound...])
      return after.contains("New like:")
        && TerminalScreen.lines(of: after).last?.hasSuffix(
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
    let gaps = await terminal.type([ctrlD, ctrlD, ctrlD], gap: gap)
    // A typist starved of the processor would type a pause: that is not the rhythm tested.
    try #require(gaps.allSatisfy { $0 < .milliseconds(900) }, "typed \(gaps) apart")
  }
}
