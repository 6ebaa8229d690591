/// What the app can do with the person's session: the seed's `UserSessionRepository`.
public protocol UserSessionRepository: Sendable {
  /// The stored session, confirmed by the server; nil when nobody is signed in.
  /// Throws `SessionError.expired` (after deleting it) when the server rejects it.
  func loadUserSession() async throws -> UserSession?
  /// The session kept on this machine, not checked with the server: whose the offline
  /// home is when the server cannot be reached. Nil when nobody is signed in.
  func storedUserSession() async throws -> RemoteUserSession?
  /// The seed's `doLogin`.
  func signIn(username: String, password: String) async throws -> UserSession
  func signUp(_ account: NewAccount) async throws -> UserSession
  /// Signs out. With `revokingOnServer`, the token is revoked first and the session is kept
  /// when that fails for any reason but a 401, so that the person can try again.
  func logout(revokingOnServer: Bool) async throws -> LogoutOutcome
  /// Where sessions are kept, for the person to read.
  var storageLocation: String { get }
  /// How long the store keeps a session on its own, when it does not keep it until sign-out.
  var storageRetention: String? { get }
}

extension UserSessionRepository {
  public var storageRetention: String? { nil }
}

/// What `logout` found and did.
public enum LogoutOutcome: Equatable, Sendable {
  case signedOut(username: String, revoked: Bool)
  case wasNotSignedIn
}
