import Domain

/// Told that a session now exists: the seed's MainViewModel switches to the signed-in screen.
@MainActor
public protocol SignedInResponder: AnyObject {
  func signedIn(to userSession: UserSession)
}
