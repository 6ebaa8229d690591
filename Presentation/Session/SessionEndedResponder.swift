/// Told that the signed-in session is over while the person was in the app: they logged
/// out (`notSignedIn`), or the server rejected the session (`sessionEnded`). The seed's
/// MainViewModel switches back to the onboarding, without leaving the process.
@MainActor
public protocol SessionEndedResponder: NotSignedInResponder {
  func sessionEnded(username: String)
}
