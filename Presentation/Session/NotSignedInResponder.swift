/// Told that no session exists: the seed's MainViewModel switches to onboarding.
@MainActor
public protocol NotSignedInResponder: AnyObject {
  func notSignedIn()
}
