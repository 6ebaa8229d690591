/// Told to show the sign-up screen; the seed's OnBoardingViewModel implements it.
@MainActor
public protocol GoToSignUpResponder: AnyObject {
  func navigateToSignUp()
}
