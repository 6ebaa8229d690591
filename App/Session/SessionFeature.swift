import ArgumentParser
import Domain
import Presentation

/// The session feature's entry points, which `app session`, `app logout` and the shell's
/// `session` and `logout` all call: what is shown and how it fails is decided once.
enum SessionFeature {
  /// Checks the session with the server and shows it: the shell's `session` too, where a
  /// server out of reach still leaves what this machine knows to show
  /// (`offlineIsAnAnswer`).
  @MainActor
  static func show(_ context: CommandContext, offlineIsAnAnswer: Bool) async throws {
    let main = MainViewModel(repository: context.root.sessionRepository)
    await context.console.withActivity("Checking the session") { await main.launch() }
    switch main.state {
    case .signedIn(let session):
      SessionScreen.show(session, root: context.root, console: context.console)
    case .onboarding(let notice):
      throw context.console.fail(context.notSignedIn(notice: notice))
    case .signedInOffline(let account, let reason) where offlineIsAnAnswer:
      SessionScreen.showOffline(
        account, reason: reason, root: context.root, console: context.console)
    case .launchFailed(let error), .signedInOffline(_, let error):
      throw context.console.fail(error)
    case .launching:
      preconditionFailure("launch() always leaves the launching state")
    }
  }

  /// Signs out the current account and says how: the shell's `logout` too. With `all`,
  /// every account whose session is kept for this server, one after the other.
  @MainActor
  static func logout(_ context: CommandContext, local: Bool, all: Bool = false) async throws {
    guard all else {
      show(try await signOut(context, local: local), root: context.root, console: context.console)
      return
    }
    let store = context.root.sessionStore
    var outcomes: [LogoutOutcome] = []
    do {
      for account in try await store.keptAccounts() {
        guard try await store.switchAccount(to: account) else { continue }
        outcomes.append(try await signOut(context, local: local))
      }
    } catch let exit as ExitCode {
      // Said already, by the sign-out that failed.
      throw exit
    } catch {
      throw context.console.fail(UserFacingError(error))
    }
    if outcomes.isEmpty { outcomes = [.wasNotSignedIn] }
    if context.console.json {
      JSONOutput.write(
        LogoutAllDocument(accounts: outcomes.map { document($0, root: context.root) }),
        to: context.console)
    } else {
      for outcome in outcomes { show(outcome, root: context.root, console: context.console) }
    }
  }

  /// Signs the current account out; what it did, or the failure said and thrown.
  @MainActor
  private static func signOut(_ context: CommandContext, local: Bool) async throws
    -> LogoutOutcome
  {
    let console = context.console
    let useCase = context.root.signOutUseCase
    let viewModel = LogoutViewModel(
      actions: .init(signOut: { try await useCase.execute(revokingOnServer: $0) }))
    await console.withActivity("Signing out") { await viewModel.logout(revokingOnServer: !local) }
    switch viewModel.state {
    case .finished(let report):
      if let reason = report.localDataLeftBecause,
        case .signedOut(let username, _) = report.outcome
      {
        console.warning("The cached likes of \(username) could not be deleted: \(reason)")
      }
      return report.outcome
    case .failed(let error):
      throw console.fail(error)
    case .idle, .signingOut:
      preconditionFailure("logout() always finishes or fails")
    }
  }

  @MainActor
  private static func document(_ outcome: LogoutOutcome, root: CompositionRoot) -> LogoutDocument {
    let (signedOut, username, revoked): (Bool, String?, Bool) =
      switch outcome {
      case .signedOut(let username, let revoked): (true, username, revoked)
      case .wasNotSignedIn: (false, nil, false)
      }
    return LogoutDocument(
      signedOut: signedOut, username: username, revokedOnServer: revoked,
      server: root.backend.documentName, dataFolder: root.dataFolder.url.path)
  }

  @MainActor
  private static func show(_ outcome: LogoutOutcome, root: CompositionRoot, console: Console) {
    let server = root.backend.displayName
    if console.json {
      JSONOutput.write(document(outcome, root: root), to: console)
      return
    }
    switch outcome {
    case .signedOut(let username, let revoked):
      let how =
        revoked ? "revoked on the server and deleted" : "deleted (not revoked on the server)"
      console.output(
        "Signed out \(username) from \(server): the token was \(how) from the keyring.")
    case .wasNotSignedIn:
      console.output("Not signed in to \(server); nothing to do.")
    }
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
