/// Keeps at most one remote session between runs, for the server the store was made for.
///
/// The live implementations are the Secret Service and, where none answers, the kernel's
/// keyring; there is deliberately no plain-file one.
/// Implementations throw `SessionStoreError`.
public protocol UserSessionDataStore: Sendable {
  /// Where the token is kept, in words a person can act on (never the token itself).
  var location: String { get }
  /// How long the store keeps a session on its own, when that is not "until it is deleted":
  /// one sentence for the person, or nil.
  var retention: String? { get }
  func readUserSession() async throws -> RemoteUserSession?
  /// Who is signed in, without reading the token: for work that needs only the account,
  /// such as reading its cache. Nil when nobody is.
  func signedInUsername() async throws -> String?
  /// Stores `session` and makes its account the current one; a store that keeps several
  /// accounts' sessions keeps the others too.
  func save(_ session: RemoteUserSession) async throws
  /// Ends the current account's session.
  func deleteUserSession() async throws
  /// The accounts whose sessions are kept for this server, sorted.
  func keptAccounts() async throws -> [String]
  /// Makes `username`, whose session is kept, the current account; false when none is kept.
  func switchAccount(to username: String) async throws -> Bool
  /// Ends every account's session for this server.
  func deleteAllUserSessions() async throws
  /// Proves that a `save` would succeed now, so that a fresh token is never asked for and
  /// then lost because it could not be kept.
  func checkWritable() async throws
}

extension UserSessionDataStore {
  public var retention: String? { nil }

  /// A store of one session keeps one account.
  public func keptAccounts() async throws -> [String] {
    try await signedInUsername().map { [$0] } ?? []
  }

  public func switchAccount(to username: String) async throws -> Bool {
    try await signedInUsername() == username
  }

  public func deleteAllUserSessions() async throws {
    try await deleteUserSession()
  }

  /// The whole session's username: right for any store, and the one a store whose token is
  /// costly to read (a keyring's encrypted transfer) replaces.
  public func signedInUsername() async throws -> String? {
    try await readUserSession()?.username
  }
}
