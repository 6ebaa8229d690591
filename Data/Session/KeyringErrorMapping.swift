import Domain
import Keyring

extension SessionStoreError {
  /// A keyring's failure, in the Domain's words: the same reason, the same limit.
  init(_ error: KeyringError) {
    switch error {
    case .unavailable(let reason): self = .unavailable(reason: reason)
    case .kernelKeyringUnavailable(let reason): self = .kernelKeyringUnavailable(reason: reason)
    case .timedOut(let seconds): self = .timedOut(seconds: seconds)
    }
  }
}

/// Runs `body`, which calls a keyring, with its failure thrown as a `SessionStoreError`.
func inSessionStoreTerms<T>(_ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let error as KeyringError {
    throw SessionStoreError(error)
  }
}
