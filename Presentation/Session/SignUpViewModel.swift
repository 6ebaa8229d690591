import Domain

/// The sign-up form: the full input rules before any request, then loading and failure
/// states. On success it tells its `SignedInResponder`, as sign-in does.
@MainActor
public final class SignUpViewModel {
  public struct State: Equatable, Sendable {
    public var username = ""
    public var name = ""
    public var password = ""
    public var status = FormStatus<UserProfile>.editing
    /// The one answer the server refused (a username taken), for the form to ask again
    /// while it keeps the others.
    public var fieldToCorrect: Field?
  }

  public enum Field: Equatable, Sendable {
    case username, name, password
  }

  /// A new password typed twice at a terminal, the two not the same: a typo would lock the
  /// person out of the account being made, so both are asked again.
  public static let passwordsDiffer = UserFacingError(
    code: "passwords_differ", message: "The two passwords are not the same; type both again.",
    remedy: .correctInput)

  /// What `value` breaks as `field`'s answer, in sentences: checked as each answer is
  /// given, before the next question.
  public static func issues(of field: Field, _ value: String) -> [String] {
    let issues =
      switch field {
      case .username: CredentialRules.issues(username: value)
      case .name: CredentialRules.issues(name: value)
      case .password: CredentialRules.issues(password: value)
      }
    return issues.map(UserFacingError.describe)
  }

  public enum Action: Equatable, Sendable {
    case usernameChanged(String)
    case nameChanged(String)
    case passwordChanged(String)
    case signUpTapped
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
    case .usernameChanged(let username): state.username = username
    case .nameChanged(let name): state.name = name
    case .passwordChanged(let password): state.password = password
    case .signUpTapped: await signUp()
    }
  }

  private func signUp() async {
    let account = NewAccount(username: state.username, name: state.name, password: state.password)
    var session: UserSession?
    await FormSubmission.submit(
      self, state: \.state, status: \.status,
      issues: CredentialRules.issues(signingUp: account).map(UserFacingError.describe),
      starting: { form in form.fieldToCorrect = nil },
      finishing: { form, outcome in
        switch outcome {
        case .success: form.password = ""
        case .failure(SessionError.usernameTaken): form.fieldToCorrect = .username
        case .failure: break
        }
      },
      request: {
        let signedUp = try await repository.signUp(account)
        session = signedUp
        return signedUp.profile
      })
    if let session { signedInResponder?.signedIn(to: session) }
  }
}
