/// The welcome screen's two choices. It only forwards them to its responders, as in the
/// seed's diagram, so that navigation stays the onboarding view model's business.
@MainActor
public final class WelcomeViewModel {
  public enum Action: Equatable, Sendable {
    case signInTapped
    case signUpTapped
  }

  private weak var goToSignInResponder: (any GoToSignInResponder)?
  private weak var goToSignUpResponder: (any GoToSignUpResponder)?

  public init(
    goToSignInResponder: any GoToSignInResponder, goToSignUpResponder: any GoToSignUpResponder
  ) {
    self.goToSignInResponder = goToSignInResponder
    self.goToSignUpResponder = goToSignUpResponder
  }

  public func send(_ action: Action) {
    switch action {
    case .signInTapped: goToSignInResponder?.navigateToSignIn()
    case .signUpTapped: goToSignUpResponder?.navigateToSignUp()
    }
  }
}
