import Domain
import Foundation
import Keyring

/// Keeps the session token in the kernel's key retention service (Keyring's `KernelKeyring`):
/// the user's persistent keyring, in kernel memory, never in a file. The store for a machine without a Secret
/// Service (a server reached over SSH, a headless box), as keyring-rs's `linux-keyutils`
/// and python-keyring's keyutils backend do.
///
/// One `user` key per account, described `<service> session server=<server> account=<name>`,
/// so `keyctl show` names the app, the server and the account. The kernel keeps the key
/// until the machine restarts, or until the persistent keyring goes unused for its expiry
/// (three days by default); every call here restarts that timer.
public struct KernelKeyringUserSessionDataStore: UserSessionDataStore {
  private let service: String
  private let server: String
  /// The keyring that holds the keys: the user's persistent one, or one given.
  private let home: Home
  let keyring = KernelKeyring()

  enum Home {
    case persistent
    case given(serial: Int32)
  }

  public init(service: String = LibsecretUserSessionDataStore.defaultService, server: String) {
    self.service = service
    self.server = server
    home = .persistent
  }

  /// Keeps the keys in the keyring `serial`, which the caller created and possesses, and ends:
  /// a keyring that lives no longer than its owner (a test's, with nothing to clean up in the
  /// user's persistent keyring).
  public init(
    service: String = LibsecretUserSessionDataStore.defaultService, server: String,
    inKeyring serial: Int32
  ) {
    self.service = service
    self.server = server
    home = .given(serial: serial)
  }

  public var location: String {
    switch home {
    case .persistent:
      "kernel keyring (the user's persistent keyring), a user key with service=\(service) server=\(server)"
    case .given(let serial):
      "kernel keyring (keyring \(serial)), a user key with service=\(service) server=\(server)"
    }
  }

  public var retention: String? {
    if case .given = home { return "The kernel keeps this session until its keyring is removed." }
    let expiry = KernelKeyring.persistentExpiry().map(Self.spoken) ?? "a few days"
    return "The kernel keeps this session until the machine restarts, or until no app has "
      + "used the persistent keyring for \(expiry) (its expiry, "
      + "/proc/sys/kernel/keys/persistent_keyring_expiry)."
  }

  public func readUserSession() async throws -> RemoteUserSession? {
    try await inSessionStoreTerms {
      let holder = try homeKeyring()
      // A key removed between the listing and the read (another process signed out) is
      // listed again: the answer is then the other session, or none.
      for _ in 0..<3 {
        guard let session = try sessions(in: holder).first else { return nil }
        if let token = try keyring.read(session.key.serial) {
          return RemoteUserSession(username: session.account, accessToken: AccessToken(token))
        }
      }
      throw SessionStoreError.kernelKeyringUnavailable(
        reason: "its session key kept disappearing while it was read")
    }
  }

  public func signedInUsername() async throws -> String? {
    try await inSessionStoreTerms {
      try sessions(in: try homeKeyring()).first?.account
    }
  }

  public func save(_ session: RemoteUserSession) async throws {
    try await inSessionStoreTerms {
      let holder = try homeKeyring()
      let description = prefix + session.username
      let token = session.accessToken.value
      // Add first, then remove the others: a failure between the two leaves an extra key,
      // never none. Two sign-ins at once can each remove the other's new key (each one
      // replaced a key the other had listed), so each then looks for its own and adds it
      // again if it is gone: whichever finishes last leaves its session.
      try keyring.add(description: description, payload: token, to: holder)
      for other in try sessions(in: holder) where other.account != session.username {
        try keyring.remove(other.key.serial)
      }
      if try !sessions(in: holder).contains(where: { $0.account == session.username }) {
        try keyring.add(description: description, payload: token, to: holder)
      }
    }
  }

  public func deleteUserSession() async throws {
    try await inSessionStoreTerms {
      let holder = try homeKeyring()
      for session in try sessions(in: holder) { try keyring.remove(session.key.serial) }
    }
  }

  public func checkWritable() async throws {
    try await inSessionStoreTerms {
      // A throwaway key under its own service name, so no session listing can ever see it.
      let holder = try homeKeyring()
      let probe = try keyring.add(
        description: "\(service).write-check session server=\(server)", payload: "write-check",
        to: holder)
      try keyring.remove(probe)
    }
  }

  var prefix: String { "\(service) session server=\(server) account=" }

  /// This store's keys, by account name: the first is the one read.
  func sessions(in holder: Int32) throws -> [(account: String, key: KernelKeyring.Key)] {
    try keyring.keys(in: holder)
      .compactMap { key in
        guard key.description.hasPrefix(prefix) else { return nil }
        let account = String(key.description.dropFirst(prefix.count))
        return account.isEmpty ? nil : (account, key)
      }
      .sorted { $0.account < $1.account }
  }

  /// The keyring's serial. Asking for the persistent keyring also restarts its expiry timer.
  private func homeKeyring() throws -> Int32 {
    switch home {
    case .persistent: try keyring.persistentKeyring()
    case .given(let serial): try keyring.linked(serial)
    }
  }

  private static func spoken(_ expiry: Duration) -> String {
    let seconds = Int(expiry.components.seconds)
    if seconds % 86_400 == 0 { return seconds == 86_400 ? "a day" : "\(seconds / 86_400) days" }
    if seconds % 3_600 == 0 { return seconds == 3_600 ? "an hour" : "\(seconds / 3_600) hours" }
    return "\(seconds) s"
  }
}

/// A `user` key per account: each account's session stays beside the others'. Keys added
/// by earlier versions (one per server) are described the same way, so they are found as
/// one account's.
extension KernelKeyringUserSessionDataStore: AccountKeyring {
  public func accounts() async throws -> [String] {
    try await inSessionStoreTerms {
      try sessions(in: try homeKeyring()).map(\.account)
    }
  }

  public func readSession(account: String) async throws -> RemoteUserSession? {
    try await inSessionStoreTerms {
      let holder = try homeKeyring()
      guard let key = try sessions(in: holder).first(where: { $0.account == account })?.key,
        let token = try keyring.read(key.serial)
      else { return nil }
      return RemoteUserSession(username: account, accessToken: AccessToken(token))
    }
  }

  public func store(_ session: RemoteUserSession) async throws {
    try await inSessionStoreTerms {
      // `add` of a key with the same description updates it in place.
      _ = try keyring.add(
        description: prefix + session.username, payload: session.accessToken.value,
        to: try homeKeyring())
    }
  }

  public func deleteSession(account: String) async throws {
    try await inSessionStoreTerms {
      let holder = try homeKeyring()
      for session in try sessions(in: holder) where session.account == account {
        try keyring.remove(session.key.serial)
      }
    }
  }
}
