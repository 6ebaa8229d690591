import Domain
import Foundation
import Keyring

/// Keeps the session token in the Secret Service (Keyring's `SecretServiceKeyring`): the
/// Linux stand-in for the seed's `KeyChainUserSessionDataStore`.
///
/// Each item carries `service`, `server` and `account` attributes, so
/// `secret-tool search service app` finds it. One item per `service` + `server`: saving
/// another account's session replaces the previous one. There is no fallback to a file.
public struct LibsecretUserSessionDataStore: UserSessionDataStore {
  public static let defaultService = "app"

  private let service: String
  let server: String
  let client: SecretServiceKeyring

  /// `server` names the backend the sessions belong to (its base URL); `timeout` bounds
  /// every call, so that a keyring nobody can unlock ends in an error, not a hang.
  public init(service: String = defaultService, server: String, timeout: Duration = .seconds(10)) {
    self.service = service
    self.server = server
    self.client = SecretServiceKeyring(timeout: timeout)
  }

  public var location: String {
    "Secret Service (libsecret) item with service=\(service) server=\(server)"
  }

  public func readUserSession() async throws -> RemoteUserSession? {
    try await inSessionStoreTerms {
      guard let account = try await signedInUsername() else { return nil }
      guard let token = try await client.lookup(attributes(account: account)) else {
        throw SessionStoreError.unavailable(reason: Self.lockedReason)
      }
      return RemoteUserSession(username: account, accessToken: AccessToken(token))
    }
  }

  /// The item's `account` attribute, from a search alone: no secret crosses the bus, so no
  /// encrypted session is opened (a Diffie-Hellman exchange, about half the cost of reading
  /// the token). Unlocked items are read over D-Bus directly; only locked ones go through
  /// libsecret, which asks the keyring to unlock them.
  public func signedInUsername() async throws -> String? {
    try await inSessionStoreTerms {
      let found = try await client.unlockedAccounts(pattern)
      if let account = found.accounts.sorted().first { return account }
      guard found.lockedCount > 0 else { return nil }
      let items = try await client.search(pattern)
      guard !items.isEmpty else { return nil }
      // "Not signed in" would be wrong here: the session is there, behind a lock.
      guard let account = items.compactMap(\.account).sorted().first else {
        throw SessionStoreError.unavailable(reason: Self.lockedReason)
      }
      return account
    }
  }

  static let lockedReason = "the keyring that holds the session is locked and could not be unlocked"

  public func save(_ session: RemoteUserSession) async throws {
    try await inSessionStoreTerms {
      // Store first, then remove the others: a failure between the two leaves an extra item,
      // never no item. Two sign-ins at once can each remove the other's new item (each one
      // replaces an old item the other is removing), so each then looks for its own and stores
      // it again if it is gone: whichever finishes last leaves its session.
      let item = attributes(account: session.username)
      let label = "app session for \(session.username) on \(server)"
      try await client.store(item, label: label, secret: session.accessToken.value)
      for other in try await client.search(pattern) where other.account != session.username {
        guard let account = other.account else { continue }
        try await client.clear(attributes(account: account))
      }
      if try await client.search(item).isEmpty {
        try await client.store(item, label: label, secret: session.accessToken.value)
      }
    }
  }

  public func deleteUserSession() async throws {
    try await inSessionStoreTerms {
      try await client.clear(pattern)
    }
  }

  public func checkWritable() async throws {
    try await inSessionStoreTerms {
      // A throwaway item under its own service name, so no session search can ever see it.
      let probe = SecretServiceKeyring.Attributes(
        service: "\(service).write-check", server: server, account: "write-check")
      try await client.store(probe, label: "app write check", secret: "write-check")
      try await client.clear(probe)
    }
  }

  var pattern: SecretServiceKeyring.Attributes {
    .init(service: service, server: server, account: nil)
  }

  func attributes(account: String) -> SecretServiceKeyring.Attributes {
    .init(service: service, server: server, account: account)
  }
}

/// A Secret Service item per account: each account's session stays beside the others'.
/// Items stored by earlier versions (one per server) have the same attributes, so they are
/// found as one account's.
extension LibsecretUserSessionDataStore: AccountKeyring {
  public func accounts() async throws -> [String] {
    try await inSessionStoreTerms {
      let found = try await client.unlockedAccounts(pattern)
      guard found.lockedCount > 0 else { return found.accounts.sorted() }
      // Locked items name their account in their attributes, which a search reads through
      // libsecret (asking the keyring to unlock them).
      return Array(Set(try await client.search(pattern).compactMap(\.account))).sorted()
    }
  }

  public func readSession(account: String) async throws -> RemoteUserSession? {
    try await inSessionStoreTerms {
      guard try await accounts().contains(account) else { return nil }
      guard let token = try await client.lookup(attributes(account: account)) else {
        throw SessionStoreError.unavailable(reason: Self.lockedReason)
      }
      return RemoteUserSession(username: account, accessToken: AccessToken(token))
    }
  }

  public func store(_ session: RemoteUserSession) async throws {
    try await inSessionStoreTerms {
      try await client.store(
        attributes(account: session.username),
        label: "app session for \(session.username) on \(server)",
        secret: session.accessToken.value)
    }
  }

  public func deleteSession(account: String) async throws {
    try await inSessionStoreTerms {
      try await client.clear(attributes(account: account))
    }
  }
}
