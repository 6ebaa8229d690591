import Domain
import Foundation

/// The session store the app uses: every account's session kept in the keyring, and the
/// data folder's own current account (`CurrentAccountFile`), so that `app login` as a
/// second account adds its session without ending the first, and two data folders are two
/// people.
///
/// A folder that never chose (an earlier version's, or a new one) uses the first account
/// the keyring keeps, as earlier versions did: a session they kept is still found.
public struct CurrentAccountSessionStore: UserSessionDataStore {
  private let keyring: any AccountKeyring
  private let current: CurrentAccountFile
  private let server: String

  public init(keyring: any AccountKeyring, current: CurrentAccountFile, server: String) {
    self.keyring = keyring
    self.current = current
    self.server = server
  }

  public var location: String { keyring.location }
  public var retention: String? { keyring.retention }

  public func readUserSession() async throws -> RemoteUserSession? {
    guard let account = try await signedInUsername() else { return nil }
    return try await keyring.readSession(account: account)
  }

  /// The folder's account while its session is kept; nil once it ended (signed out from
  /// another folder, `logout --all`).
  public func signedInUsername() async throws -> String? {
    let chosen = current.account(on: server)
    // Signed out here: another folder's account is another person's.
    if chosen == Self.signedOut { return nil }
    let kept = try await keyring.accounts()
    guard let chosen else { return kept.first }
    return kept.contains(chosen) ? chosen : nil
  }

  public func save(_ session: RemoteUserSession) async throws {
    try await keyring.store(session)
    try current.set(session.username, on: server)
  }

  public func deleteUserSession() async throws {
    guard let account = try await signedInUsername() else { return }
    try await keyring.deleteSession(account: account)
    try current.set(Self.signedOut, on: server)
  }

  /// What the file says of a folder signed out: nobody, whatever other folders keep.
  static let signedOut = ""

  public func keptAccounts() async throws -> [String] {
    try await keyring.accounts()
  }

  public func switchAccount(to username: String) async throws -> Bool {
    guard try await keyring.accounts().contains(username) else { return false }
    try current.set(username, on: server)
    return true
  }

  public func deleteAllUserSessions() async throws {
    for account in try await keyring.accounts() {
      try await keyring.deleteSession(account: account)
    }
    try current.set(Self.signedOut, on: server)
  }

  public func checkWritable() async throws {
    try await keyring.checkWritable()
  }
}
