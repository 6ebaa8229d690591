/// The backend's accounts-and-sessions endpoints, as the session rules need them.
///
/// Implementations throw `RemoteAPIError` for transport and server failures, and
/// `SessionError` where the contract gives a failure a meaning (wrong password, username
/// taken, input rejected).
public protocol AuthRemoteAPI: Sendable {
  func signIn(username: String, password: String) async throws -> AccessToken
  func signUp(_ account: NewAccount) async throws -> AccessToken
  func fetchProfile(with token: AccessToken) async throws -> UserProfile
  func revoke(_ token: AccessToken) async throws
}
