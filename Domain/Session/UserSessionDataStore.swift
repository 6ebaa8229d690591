/// Keeps at most one remote session between runs, for the server the store was made for.
///
/// The live implementation is the Secret Service; there is deliberately no plain-file one.
/// Implementations throw `SessionStoreError`.
public protocol UserSessionDataStore: Sendable {
  /// Where the token is kept, in words a person can act on (never the token itself).
  var location: String { get }
  func readUserSession() async throws -> RemoteUserSession?
  /// Stores `session`, replacing any other account's session for the same server.
  func save(_ session: RemoteUserSession) async throws
  func deleteUserSession() async throws
  /// Proves that a `save` would succeed now, so that a fresh token is never asked for and
  /// then lost because it could not be kept.
  func checkWritable() async throws
}
