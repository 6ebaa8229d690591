import ArgumentParser
import Domain
import Presentation

/// What every feature's entry point starts from: its console (which knows its front end's
/// words) and its composition root. A command of the command line builds both for itself;
/// the shell builds its root once and hands it to every feature it calls. Building the root
/// can fail (a data folder that cannot be created, a backend file that cannot be opened);
/// that is reported like any other failure.
@MainActor
struct CommandContext {
  let console: Console
  let root: CompositionRoot

  /// The shell's: one root for the whole session.
  init(console: Console, root: CompositionRoot) {
    self.console = console
    self.root = root
  }

  /// A command's own. `jsonLines`: the command streams JSON Lines, so its errors are lines too.
  init(options: GlobalOptions, io: AppIO, jsonLines: Bool = false) async throws {
    console = Console(json: options.json, jsonLines: jsonLines, io: io)
    do {
      root = try await CompositionRoot(options: options, io: io)
    } catch {
      throw console.fail(
        UserFacingError(code: "setup_failed", message: UserFacingError.describing(error)))
    }
  }

  /// The error for "nobody is signed in", naming the server.
  func notSignedIn(notice: OnboardingNotice?) -> UserFacingError {
    switch notice {
    case .sessionExpired(let username): UserFacingError(SessionError.expired(username: username))
    case nil:
      UserFacingError(
        code: "not_signed_in", message: "You are not signed in to \(root.backend.displayName).",
        suggestion: .signIn, remedy: .signIn)
    }
  }

  /// The password for a non-interactive sign-in or sign-up: all of stdin with
  /// `--password-stdin`, otherwise asked for without echo.
  /// A new password (`app signup`): at a terminal it is asked twice, without echo, and both
  /// again until the two are the same; from standard input or a pipe, once.
  func newPassword(fromStandardInput: Bool, prompt: String) throws -> String {
    let input = LineInput(console: console)
    while true {
      let typed = try password(fromStandardInput: fromStandardInput, prompt: prompt)
      guard !fromStandardInput, console.io.stdinIsTerminal else { return typed }
      guard let again = input.askSecretOnce("Password again: ") else {
        throw console.fail(UserFacingError(code: "input_ended", message: "No password was given."))
      }
      if again == typed { return typed }
      console.show(SignUpViewModel.passwordsDiffer)
    }
  }

  func password(fromStandardInput: Bool, prompt: String) throws -> String {
    if fromStandardInput { return LineInput(console: console).readAllStandardInput() }
    guard let typed = LineInput(console: console).askSecretOnce(prompt) else {
      throw console.fail(UserFacingError(code: "input_ended", message: "No password was given."))
    }
    return typed
  }
}
