import Domain

/// A keyring that keeps a session per account for one server (the Secret Service's items,
/// the kernel's keys), read and ended account by account. `CurrentAccountSessionStore`
/// decides which one a data folder uses.
public protocol AccountKeyring: Sendable {
  var location: String { get }
  var retention: String? { get }
  /// The accounts with a session here, sorted.
  func accounts() async throws -> [String]
  func readSession(account: String) async throws -> RemoteUserSession?
  /// Keeps `session`, beside the other accounts' sessions.
  func store(_ session: RemoteUserSession) async throws
  func deleteSession(account: String) async throws
  func checkWritable() async throws
}
