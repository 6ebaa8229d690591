/// Told to show the sign-in screen; the seed's OnBoardingViewModel implements it.
@MainActor
public protocol GoToSignInResponder: AnyObject {
  func navigateToSignIn()
}
