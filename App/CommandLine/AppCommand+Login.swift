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

        The token is kept only in a keyring, never in a file: the Secret Service, or the \
        kernel's keyring where no Secret Service answers (APP_KEYRING=secret-service or \
        APP_KEYRING=kernel chooses one; `app session` says which holds it).
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
      try await SessionFeature.login(
        options, io: io, username: username, passwordFromStdin: passwordStdin)
    }
  }
}
