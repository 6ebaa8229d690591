import Domain

/// The sign-in form: validation, loading and failure states. On success it tells its
/// `SignedInResponder`, which is how the main screen learns about the new session.
@MainActor
public final class SignInViewModel {
  public struct State: Equatable, Sendable {
    public var username = ""
    public var password = ""
    public var status = FormStatus<UserProfile>.editing
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
    let (username, password) = (state.username, state.password)
    var session: UserSession?
    await FormSubmission.submit(
      self, state: \.state, status: \.status,
      issues: CredentialRules.issues(signingInAs: username, password: password)
        .map(UserFacingError.describe),
      finishing: { form, outcome in
        if case .success = outcome { form.password = "" }
      },
      request: {
        let signedIn = try await repository.signIn(username: username, password: password)
        session = signedIn
        return signedIn.profile
      })
    if let session { signedInResponder?.signedIn(to: session) }
  }
}
