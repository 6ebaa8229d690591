import ArgumentParser
import Domain
import Presentation

/// Drives the seed's view models from lines of input: the welcome, sign-in and sign-up
/// screens, as a person sees them at a terminal or a script feeds them through a pipe.
@MainActor
struct OnboardingFlow {
  let context: CommandContext
  let main: MainViewModel
  private var console: Console { context.console }
  private var input: LineInput { LineInput(console: context.console) }

  /// Runs the screens until somebody is signed in or the person quits; throws the exit code
  /// when the input ends or something fails. Quitting is a choice, not an error.
  func run() async throws {
    while case .onboarding = main.state, let onboarding = main.onBoardingViewModel {
      switch onboarding.screen {
      case .welcome:
        guard try await welcome(onboarding) else { return reportQuit() }
      case .signIn: try await signIn(onboarding)
      case .signUp: try await signUp(onboarding)
      }
    }
  }

  /// False when the person chose to quit.
  private func welcome(_ onboarding: OnBoardingViewModel) async throws -> Bool {
    console.message("Welcome! You are not signed in to \(context.root.backend.displayName).")
    console.message("  1) Sign in\n  2) Sign up\n  q) Quit")
    guard let choice = try await input.ask("Choose 1, 2 or q: ") else { throw inputEnded() }
    switch choice.trimmingCharacters(in: .whitespaces).lowercased() {
    case "1", "s", "sign in", "signin": onboarding.welcomeViewModel.send(.signInTapped)
    case "2", "u", "sign up", "signup": onboarding.welcomeViewModel.send(.signUpTapped)
    case "q", "quit": return false
    default: console.message("Please type 1, 2 or q.")
    }
    return true
  }

  private func reportQuit() {
    let root = context.root
    if console.json {
      JSONOutput.write(
        NotSignedInDocument(
          server: root.backend.documentName, dataFolder: root.dataFolder.url.path),
        to: console)
    } else {
      console.message("Nobody is signed in to \(root.backend.displayName).")
    }
  }

  private func signIn(_ onboarding: OnBoardingViewModel) async throws {
    console.message("Sign in (leave the username empty to go back).")
    guard let username = try await input.ask("Username: ") else { throw inputEnded() }
    if username.isEmpty { return onboarding.navigateToWelcome() }
    guard let password = try await input.askSecret("Password: ") else { throw inputEnded() }
    try await submitSignIn(
      onboarding.signInViewModel, username: username, password: password, retrying: true)
  }

  private func signUp(_ onboarding: OnBoardingViewModel) async throws {
    console.message("Create an account (leave the username empty to go back).")
    guard let username = try await input.ask("Username: ") else { throw inputEnded() }
    if username.isEmpty { return onboarding.navigateToWelcome() }
    guard let name = try await input.ask("Your name: ") else { throw inputEnded() }
    let password = try await askNewPassword(checkingRules: false)
    try await submitSignUp(
      onboarding.signUpViewModel, username: username, name: name, password: password, retrying: true
    )
  }

  /// The shell's `login [USERNAME]`: the sign-in screen once, then back to the welcome
  /// unless it worked. A refused password ends it like any failure, for a script's exit code.
  func signInOnce(username: String?) async throws {
    guard let onboarding = main.onBoardingViewModel else { return }
    onboarding.welcomeViewModel.send(.signInTapped)
    defer { main.onBoardingViewModel?.navigateToWelcome() }
    let name: String
    if let username {
      name = username
    } else {
      guard let typed = try await input.ask("Username: ") else { throw inputEnded() }
      guard !typed.isEmpty else { return }
      name = typed
    }
    guard let password = try await input.askSecret("Password for \(name): ") else {
      throw inputEnded()
    }
    try await submitSignIn(
      onboarding.signInViewModel, username: name, password: password, retrying: false)
  }

  /// The shell's `signup`: the sign-up screen once, then back to the welcome unless it
  /// worked. Each answer is checked as it is given and asked again until it passes; an
  /// answer the server refuses (a username taken) is asked again alone, the others kept.
  /// An empty username goes back.
  func signUpOnce() async throws {
    guard let onboarding = main.onBoardingViewModel else { return }
    onboarding.welcomeViewModel.send(.signUpTapped)
    defer { main.onBoardingViewModel?.navigateToWelcome() }
    let form = onboarding.signUpViewModel
    guard var username = try await askUsername() else { return }
    let name = try await askUntilValid(.name, "Your name: ")
    let password = try await askNewPassword(checkingRules: true)
    while true {
      await form.send(.usernameChanged(username))
      await form.send(.nameChanged(name))
      await form.send(.passwordChanged(password))
      await console.withActivity("Creating the account") { await form.send(.signUpTapped) }
      guard case .failed(let error) = form.state.status, form.state.fieldToCorrect == .username
      else {
        return try handle(form.state.status, retrying: false)
      }
      console.show(error)
      guard let another = try await askUsername() else { return }
      username = another
    }
  }

  /// A new username, asked until it is well formed; nil when left empty (go back).
  private func askUsername() async throws -> String? {
    while true {
      guard let typed = try await input.ask("Username: ") else { throw inputEnded() }
      if typed.isEmpty { return nil }
      let issues = SignUpViewModel.issues(of: .username, typed)
      if issues.isEmpty { return typed }
      console.show(invalid(issues))
    }
  }

  /// The new password. At a terminal it is typed twice, without echo, and on a mismatch both
  /// are asked again (the username and the name are kept): a typo would lock the person out
  /// of the account being made. A script gives it once. `checkingRules`: asked again until
  /// it passes the form's rules, before it is typed the second time.
  private func askNewPassword(checkingRules: Bool) async throws -> String {
    let question = "Password (\(CredentialRules.minimumPasswordLength)+ characters): "
    while true {
      let password: String
      if checkingRules {
        password = try await askUntilValid(.password, question)
      } else {
        guard let typed = try await input.askSecret(question) else { throw inputEnded() }
        password = typed
      }
      guard console.io.stdinIsTerminal else { return password }
      guard let again = try await input.askSecret("Password again: ") else { throw inputEnded() }
      if again == password { return password }
      console.show(SignUpViewModel.passwordsDiffer)
    }
  }

  /// The answer to `field`'s question, asked until it passes the form's rules.
  private func askUntilValid(_ field: SignUpViewModel.Field, _ question: String) async throws
    -> String
  {
    while true {
      let answer =
        field == .password ? try await input.askSecret(question) : try await input.ask(question)
      guard let answer else { throw inputEnded() }
      let issues = SignUpViewModel.issues(of: field, answer)
      if issues.isEmpty { return answer }
      console.show(invalid(issues))
    }
  }

  private func invalid(_ sentences: [String]) -> UserFacingError {
    UserFacingError(
      code: "invalid_input", message: sentences.joined(separator: " "), remedy: .correctInput)
  }

  func submitSignIn(
    _ viewModel: SignInViewModel, username: String, password: String, retrying: Bool
  ) async throws {
    await viewModel.send(.usernameChanged(username))
    await viewModel.send(.passwordChanged(password))
    await console.withActivity("Signing in") { await viewModel.send(.signInTapped) }
    try handle(viewModel.state.status, retrying: retrying)
  }

  func submitSignUp(
    _ viewModel: SignUpViewModel, username: String, name: String, password: String, retrying: Bool
  ) async throws {
    await viewModel.send(.usernameChanged(username))
    await viewModel.send(.nameChanged(name))
    await viewModel.send(.passwordChanged(password))
    await console.withActivity("Creating the account") { await viewModel.send(.signUpTapped) }
    try handle(viewModel.state.status, retrying: retrying)
  }

  private func handle(_ status: FormStatus<UserProfile>, retrying: Bool) throws {
    let error: UserFacingError
    switch status {
    case .succeeded, .editing, .submitting: return
    case .invalid(let sentences):
      error = UserFacingError(
        code: "invalid_input", message: sentences.joined(separator: " "), remedy: .correctInput)
    case .failed(let failure):
      error = failure
    }
    // Only what typing something else can fix asks again; anything else ends the command.
    guard retrying, error.correctingInputHelps else { throw console.fail(error) }
    console.show(error)
  }

  private func inputEnded() -> ExitCode {
    console.fail(
      UserFacingError(code: "input_ended", message: "The input ended before anybody signed in."))
  }
}
