internal import CLibSecret
import Foundation

/// The Secret Service's items, through libsecret, and the two questions asked before a
/// secret is needed (does a Secret Service answer, which accounts have an unlocked item),
/// through sd-bus (`SecretServiceQuestions`). The Linux stand-in for the iOS Keychain that
/// Data's `LibsecretUserSessionDataStore` adapts to the Domain.
///
/// Every call runs on the keyring's own thread with a time limit (`SecretServiceCalls`):
/// libsecret's sync calls can block indefinitely on a locked keyring that waits for a prompt
/// nobody can see, so a call that passes its limit is cancelled and throws
/// `KeyringError.timedOut` instead of hanging.
public struct SecretServiceKeyring: Sendable {
  let calls: SecretServiceCalls

  public init(timeout: Duration) {
    calls = SecretServiceCalls(timeout: timeout)
  }

  /// The `service` / `server` / `account` attributes of one item, or a search pattern
  /// when `account` is nil.
  public struct Attributes: Sendable, Equatable {
    public var service: String
    public var server: String
    public var account: String?

    public init(service: String, server: String, account: String?) {
      self.service = service
      self.server = server
      self.account = account
    }
  }

  public struct FoundItem: Sendable, Equatable {
    /// Nil when the item is locked: a locked keyring shows only hashes of the attributes.
    public let account: String?
  }

  /// The items matching `attributes`, unlocking locked ones (which may prompt).
  public func search(_ attributes: Attributes) async throws -> [FoundItem] {
    try await calls.runReconnecting { g, cancellable, service in
      let table = Self.table(attributes)
      defer { g.g_hash_table_unref(table) }
      var error: UnsafeMutablePointer<GError>?
      let list = g.secret_service_search_sync(
        service, app_session_schema(), table, app_search_all_unlocking(), cancellable, &error)
      try LibsecretLibrary.check(error)
      defer { app_list_free_retrievables(LibsecretLibrary.loaded, list) }
      var found: [FoundItem] = []
      var node = list
      while let current = node {
        if let account = app_retrievable_copy_attribute(
          LibsecretLibrary.loaded, app_list_retrievable(current), "account")
        {
          found.append(FoundItem(account: String(cString: account)))
          g.g_free(account)
        } else {
          found.append(FoundItem(account: nil))
        }
        node = current.pointee.next
      }
      return found
    }
  }

  /// What a search of unlocked items finds without libsecret: their accounts, and how many
  /// matching items are locked.
  public struct UnlockedAccounts: Sendable, Equatable {
    public let accounts: [String]
    public let lockedCount: Int
  }

  /// The accounts of the unlocked items matching `attributes`, from the Secret Service's
  /// D-Bus API directly: three messages where libsecret's search sends sixteen, over sd-bus,
  /// with neither libsecret nor GLib loaded. Locked items are only counted; `search` unlocks.
  /// No libsecret service is made for it: building one asks the service for its properties
  /// and watches its name, 0.4 to 1.4 ms that a cached page, which needs only the account,
  /// used to pay.
  public func unlockedAccounts(_ attributes: Attributes) async throws -> UnlockedAccounts {
    let pattern = Self.pairs(attributes)
    return try await calls.runOverTheSessionBus { connection, deadline in
      let found = try SecretServiceQuestions.unlockedAccounts(
        matching: pattern, on: connection, deadline: deadline)
      return UnlockedAccounts(accounts: found.accounts, lockedCount: found.lockedCount)
    }
  }

  /// The secret of the item with `attributes`, or nil when there is none.
  public func lookup(_ attributes: Attributes) async throws -> String? {
    try await calls.runReconnecting { g, cancellable, service in
      let table = Self.table(attributes)
      defer { g.g_hash_table_unref(table) }
      var error: UnsafeMutablePointer<GError>?
      let value = g.secret_service_lookup_sync(
        service, app_session_schema(), table, cancellable, &error)
      try LibsecretLibrary.check(error)
      guard let value else { return nil }
      defer { g.secret_value_unref(UnsafeMutableRawPointer(value)) }
      return g.secret_value_get_text(value).map { String(cString: $0) }
    }
  }

  /// Stores `secret` as the item with `attributes`, replacing one with the same attributes.
  public func store(_ attributes: Attributes, label: String, secret: String) async throws {
    try await calls.runReconnecting { g, cancellable, service in
      let table = Self.table(attributes)
      defer { g.g_hash_table_unref(table) }
      let value = g.secret_value_new(secret, -1, "text/plain")
      defer { g.secret_value_unref(UnsafeMutableRawPointer(value)) }
      var error: UnsafeMutablePointer<GError>?
      let stored = g.secret_service_store_sync(
        service, app_session_schema(), table, nil, label, value, cancellable, &error)
      try LibsecretLibrary.check(error)
      guard stored != 0 else {
        throw KeyringError.unavailable(reason: "the Secret Service did not store the item")
      }
    }
  }

  /// Removes every item matching `attributes`; none is fine.
  public func clear(_ attributes: Attributes) async throws {
    try await calls.runReconnecting { g, cancellable, service in
      let table = Self.table(attributes)
      defer { g.g_hash_table_unref(table) }
      var error: UnsafeMutablePointer<GError>?
      _ = g.secret_service_clear_sync(service, app_session_schema(), table, cancellable, &error)
      try LibsecretLibrary.check(error)
    }
  }

  /// Whether a Secret Service answers on the session bus, asked over sd-bus as
  /// `unlockedAccounts` is: false, not an error, where there is no session bus, or one that
  /// does not answer.
  public func answers() async throws -> Bool {
    do {
      return try await calls.runOverTheSessionBus { connection, deadline in
        try SecretServiceQuestions.serviceAnswers(on: connection, deadline: deadline)
      }
    } catch KeyringError.unavailable {
      return false
    }
  }

  private static func table(_ attributes: Attributes) -> OpaquePointer {
    let loaded = LibsecretLibrary.loaded
    let table = app_attributes_new(loaded)!
    app_attributes_set(loaded, table, "service", attributes.service)
    app_attributes_set(loaded, table, "server", attributes.server)
    if let account = attributes.account { app_attributes_set(loaded, table, "account", account) }
    return table
  }

  private static func pairs(_ attributes: Attributes) -> [(String, String)] {
    [("service", attributes.service), ("server", attributes.server)]
      + (attributes.account.map { [("account", $0)] } ?? [])
  }
}
