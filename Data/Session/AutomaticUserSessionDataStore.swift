import Domain
import Foundation
import Keyring

/// `APP_KEYRING=auto`: the Secret Service when one answers on the session bus, else the
/// kernel keyring (`KeyringChoice`).
public final class AutomaticUserSessionDataStore: UserSessionDataStore, Sendable {
  private let choice: KeyringChoice<any UserSessionDataStore>

  /// `secretServiceAnswers` tells whether a Secret Service is there to use.
  public init(
    secretService: any UserSessionDataStore, kernel: any UserSessionDataStore,
    secretServiceAnswers: @escaping @Sendable () async throws -> Bool
  ) {
    choice = KeyringChoice(
      secretService: secretService, kernel: kernel, secretServiceAnswers: secretServiceAnswers)
  }

  /// The live stores for `server`: libsecret's, or the kernel's.
  public convenience init(server: String) {
    let keyring = SecretServiceKeyring(timeout: .seconds(10))
    self.init(
      secretService: LibsecretUserSessionDataStore(server: server),
      kernel: KernelKeyringUserSessionDataStore(server: server),
      secretServiceAnswers: { try await inSessionStoreTerms { try await keyring.answers() } })
  }

  public var location: String {
    choice.made?.location ?? "Secret Service, or the kernel keyring where none answers"
  }

  public var retention: String? { choice.made?.retention }

  public func readUserSession() async throws -> RemoteUserSession? {
    try await choice.store().readUserSession()
  }

  public func signedInUsername() async throws -> String? {
    try await choice.store().signedInUsername()
  }

  public func save(_ session: RemoteUserSession) async throws {
    try await choice.store().save(session)
  }

  public func deleteUserSession() async throws {
    try await choice.store().deleteUserSession()
  }

  public func checkWritable() async throws {
    try await choice.store().checkWritable()
  }
}

/// `APP_KEYRING=auto` for the keyrings that keep a session per account.
public final class AutomaticAccountKeyring: AccountKeyring {
  private let choice: KeyringChoice<any AccountKeyring>

  public init(
    secretService: any AccountKeyring, kernel: any AccountKeyring,
    secretServiceAnswers: @escaping @Sendable () async throws -> Bool
  ) {
    choice = KeyringChoice(
      secretService: secretService, kernel: kernel, secretServiceAnswers: secretServiceAnswers)
  }

  /// The live keyrings for `server`: the Secret Service's, or the kernel's.
  public convenience init(server: String) {
    let keyring = SecretServiceKeyring(timeout: .seconds(10))
    self.init(
      secretService: LibsecretUserSessionDataStore(server: server),
      kernel: KernelKeyringUserSessionDataStore(server: server),
      secretServiceAnswers: { try await inSessionStoreTerms { try await keyring.answers() } })
  }

  public var location: String {
    choice.made?.location ?? "Secret Service, or the kernel keyring where none answers"
  }

  public var retention: String? { choice.made?.retention }

  public func accounts() async throws -> [String] { try await choice.store().accounts() }

  public func readSession(account: String) async throws -> RemoteUserSession? {
    try await choice.store().readSession(account: account)
  }

  public func store(_ session: RemoteUserSession) async throws {
    try await choice.store().store(session)
  }

  public func deleteSession(account: String) async throws {
    try await choice.store().deleteSession(account: account)
  }

  public func checkWritable() async throws { try await choice.store().checkWritable() }
}
