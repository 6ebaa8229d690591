import ArgumentParser
import Domain
import Presentation

extension AppCommand {
  struct Signup: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "signup",
      abstract: "Create an account and sign in to it.",
      discussion:
        "Without --password-stdin the password is asked for: at a terminal twice, not echoed.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "The new account's username: 3 to 32 characters from a-z, 0-9, '.', '_' and '-'.")
    var username: String

    @Option(help: "Your name, as others will see it.")
    var name: String

    @Flag(help: "Read the password from standard input.")
    var passwordStdin = false

    func validate() throws {
      try OptionChecks.notBlank(username, "--username")
      try OptionChecks.notBlank(name, "--name")
    }

    func run(io: AppIO) async throws {
      try await SessionFeature.signUp(
        options, io: io, username: username, name: name, passwordFromStdin: passwordStdin)
    }
  }
}
