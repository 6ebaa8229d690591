import Domain

/// The sign-in form: validation, loading and failure states. On success it tells its
/// `SignedInResponder`, which is how the main screen learns about the new session.
@MainActor
public final class SignInViewModel {
  public struct State: Equatable, Sendable {
    public var username = ""
    public var password = ""
    public var status = FormStatus.editing
  }

  public enum Action: Equatable, Sendable {
    case usernameChanged(String)
    case passwordChanged(String)
    case signInTapped
  }

  public private(set) var state = State() {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  private let repository: any UserSessionRepository
  private weak var signedInResponder: (any SignedInResponder)?

  public init(repository: any UserSessionRepository, signedInResponder: (any SignedInResponder)?) {
    self.repository = repository
    self.signedInResponder = signedInResponder
  }

  public func send(_ action: Action) async {
    switch action {
    case .usernameChanged(let username):
      state.username = username
    case .passwordChanged(let password):
      state.password = password
    case .signInTapped:
      await signIn()
    }
  }

  private func signIn() async {
    // A second tap while a request is in flight must not send a second request.
    guard !state.status.isSubmitting else { return }
    let issues = CredentialRules.issues(signingInAs: state.username, password: state.password)
    guard issues.isEmpty else {
      state.status = .invalid(issues.map(UserFacingError.describe))
      return
    }
    state.status = .submitting
    do {
      let session = try await repository.signIn(username: state.username, password: state.password)
      // One change, so observers never see a half-updated form.
      var finished = state
      finished.password = ""
      finished.status = .succeeded
      state = finished
      signedInResponder?.signedIn(to: session)
    } catch {
      state.status = .failed(UserFacingError(error))
    }
  }
}
