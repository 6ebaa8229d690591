/// Why the place that keeps session tokens could not be used.
public enum SessionStoreError: Error, Equatable, Sendable {
  /// The store cannot be reached or refused the operation; `reason` says what was found.
  case unavailable(reason: String)
  /// The kernel's keyring (the store where no Secret Service answers) refused the operation.
  case kernelKeyringUnavailable(reason: String)
  /// The store did not answer in time, typically a locked keyring waiting for a prompt
  /// nobody can see.
  case timedOut(seconds: Int)
}
