import Synchronization

/// `APP_KEYRING=auto`'s choice: the Secret Service's store when one answers on the session
/// bus, else the kernel keyring's. Made at the first call and kept for the process, so a
/// session that lasts (the shell) never moves its token between stores because the keyring
/// daemon restarted under it; a probe that failed (a bus that did not answer in time) is
/// tried again by the next call rather than deciding for the whole process.
final class KeyringChoice<Store: Sendable>: Sendable {
  private let secretService: Store
  private let kernel: Store
  private let secretServiceAnswers: @Sendable () async throws -> Bool
  private let choice = Mutex<Task<Store, any Error>?>(nil)
  private let chosen = Mutex<Store?>(nil)

  init(
    secretService: Store, kernel: Store,
    secretServiceAnswers: @escaping @Sendable () async throws -> Bool
  ) {
    self.secretService = secretService
    self.kernel = kernel
    self.secretServiceAnswers = secretServiceAnswers
  }

  /// The store chosen so far; nil before the first call.
  var made: Store? { chosen.withLock { $0 } }

  func store() async throws -> Store {
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
