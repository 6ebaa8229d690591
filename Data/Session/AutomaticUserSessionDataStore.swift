import Domain
import Foundation
import Synchronization

/// `APP_KEYRING=auto`: the Secret Service when one answers on the session bus, else the
/// kernel keyring. The choice is made at the first call and kept for the process, so a
/// session that lasts (the shell) never moves its token between stores because the
/// keyring daemon restarted under it.
public final class AutomaticUserSessionDataStore: UserSessionDataStore, Sendable {
  private let secretService: any UserSessionDataStore
  private let kernel: any UserSessionDataStore
  private let secretServiceAnswers: @Sendable () async throws -> Bool
  private let choice = Mutex<Task<any UserSessionDataStore, any Error>?>(nil)
  private let chosen = Mutex<(any UserSessionDataStore)?>(nil)

  /// `secretServiceAnswers` tells whether a Secret Service is there to use.
  public init(
    secretService: any UserSessionDataStore, kernel: any UserSessionDataStore,
    secretServiceAnswers: @escaping @Sendable () async throws -> Bool
  ) {
    self.secretService = secretService
    self.kernel = kernel
    self.secretServiceAnswers = secretServiceAnswers
  }

  /// The live stores for `server`: libsecret's, or the kernel's.
  public convenience init(server: String) {
    let client = SecretServiceClient(timeout: .seconds(10))
    self.init(
      secretService: LibsecretUserSessionDataStore(server: server),
      kernel: KernelKeyringUserSessionDataStore(server: server),
      secretServiceAnswers: { try await client.answers() })
  }

  public var location: String {
    chosen.withLock { $0?.location }
      ?? "Secret Service, or the kernel keyring where none answers"
  }

  public var retention: String? { chosen.withLock { $0?.retention } }

  public func readUserSession() async throws -> RemoteUserSession? {
    try await store().readUserSession()
  }

  public func signedInUsername() async throws -> String? {
    try await store().signedInUsername()
  }

  public func save(_ session: RemoteUserSession) async throws {
    try await store().save(session)
  }

  public func deleteUserSession() async throws {
    try await store().deleteUserSession()
  }

  public func checkWritable() async throws {
    try await store().checkWritable()
  }

  /// The store chosen by the first call; a probe that failed (a bus that did not answer in
  /// time) is tried again by the next call rather than deciding for the whole process.
  private func store() async throws -> any UserSessionDataStore {
    let task = choice.withLock { task in
      if let task { return task }
      let made = Task { [secretService, kernel, secretServiceAnswers] in
        try await secretServiceAnswers() ? secretService : kernel
      }
      task = made
      return made
    }
    do {
      let store = try await task.value
      chosen.withLock { $0 = store }
      return store
    } catch {
      choice.withLock { if $0 == task { $0 = nil } }
      throw error
    }
  }
}
