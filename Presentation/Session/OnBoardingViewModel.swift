import Domain

/// The seed's onboarding workflow: welcome, then sign in or sign up. It is the
/// `GoToSignInResponder` and `GoToSignUpResponder` that the welcome screen talks to.
@MainActor
public final class OnBoardingViewModel: GoToSignInResponder, GoToSignUpResponder {
  public enum Screen: Equatable, Sendable {
    case welcome
    case signIn
    case signUp
  }

  public private(set) var screen: Screen = .welcome {
    didSet { onScreenChange?(screen) }
  }
  public var onScreenChange: ((Screen) -> Void)?

  public private(set) lazy var welcomeViewModel = WelcomeViewModel(
    goToSignInResponder: self, goToSignUpResponder: self)
  public private(set) lazy var signInViewModel = SignInViewModel(
    repository: repository, signedInResponder: signedInResponder)
  public private(set) lazy var signUpViewModel = SignUpViewModel(
    repository: repository, signedInResponder: signedInResponder)

  private let repository: any UserSessionRepository
  private weak var signedInResponder: (any SignedInResponder)?

  public init(repository: any UserSessionRepository, signedInResponder: any SignedInResponder) {
    self.repository = repository
    self.signedInResponder = signedInResponder
  }

  public func navigateToSignIn() { screen = .signIn }
  public func navigateToSignUp() { screen = .signUp }
  public func navigateToWelcome() { screen = .welcome }
}
