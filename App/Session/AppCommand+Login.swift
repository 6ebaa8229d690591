import ArgumentParser
import Presentation

extension AppCommand {
  struct Login: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "login",
      abstract: "Sign in: interactively, or with --username and --password-stdin.",
      discussion: """
        Without options: checks the saved session, then offers to sign in or sign up, reading \
        one answer per line from the terminal or a pipe (passwords are not echoed on a \
        terminal).

        With --username U --password-stdin: signs in as U with the password read from stdin, \
        replacing any saved session for this server.

        The token is kept in the Secret Service keyring only.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(help: "Sign in as this user (asks only for the password).")
    var username: String?

    @Flag(help: "Read the password from standard input (needs --username).")
    var passwordStdin = false

    func validate() throws {
      if passwordStdin && username == nil {
        throw ValidationError("--password-stdin needs --username.")
      }
      try OptionChecks.notBlank(username, "--username")
    }

    func run(io: AppIO) async throws {
      try await Self.login(
        options, io: io, username: username, passwordFromStdin: passwordStdin)
    }

    @MainActor
    static func login(
      _ options: GlobalOptions, io: AppIO, username: String?, passwordFromStdin: Bool
    ) async throws {
      let context = try await CommandContext(options: options, io: io)
      let main = MainViewModel(repository: context.root.sessionRepository)
      let flow = OnboardingFlow(context: context, main: main)
      if let username {
        // Named sign-in skips the saved-session check: it replaces whatever is saved.
        main.notSignedIn()
        guard let onboarding = main.onBoardingViewModel else { return }
        onboarding.navigateToSignIn()
        let password = try context.password(
          fromStandardInput: passwordFromStdin, prompt: "Password for \(username): ")
        try await flow.submitSignIn(
          onboarding.signInViewModel, username: username, password: password, retrying: false)
      } else {
        context.console.message(
          "Checking for a saved session on \(context.root.backend.displayName)…")
        await main.launch()
        switch main.state {
        case .launchFailed(let error), .signedInOffline(_, let error):
          throw context.console.fail(error)
        case .onboarding(.sessionExpired(let username)):
          context.console.warning(
            "The session of \(username) has expired or was revoked; please sign in again.")
        case .onboarding(nil), .signedIn, .launching:
          break
        }
        try await flow.run()
      }
      guard case .signedIn(let session) = main.state else { return }
      SessionScreen.show(session, root: context.root, console: context.console)
    }
  }
}
