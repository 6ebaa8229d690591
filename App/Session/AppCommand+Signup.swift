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
      try await Self.signUp(
        options, io: io, username: username, name: name, passwordFromStdin: passwordStdin)
    }

    @MainActor
    static func signUp(
      _ options: GlobalOptions, io: AppIO, username: String, name: String,
      passwordFromStdin: Bool
    ) async throws {
      let context = try await CommandContext(options: options, io: io)
      let main = MainViewModel(repository: context.root.sessionRepository)
      main.notSignedIn()
      guard let onboarding = main.onBoardingViewModel else { return }
      onboarding.navigateToSignUp()
      let password = try context.newPassword(
        fromStandardInput: passwordFromStdin,
        prompt: "Password (\(CredentialRules.minimumPasswordLength)+ characters): ")
      let flow = OnboardingFlow(context: context, main: main)
      try await flow.submitSignUp(
        onboarding.signUpViewModel, username: username, name: name, password: password,
        retrying: false)
      guard case .signedIn(let session) = main.state else { return }
      SessionScreen.show(session, root: context.root, console: context.console)
    }
  }
}
