/// Why a keyring call failed, in words a person can act on. Data's session stores carry it
/// into the Domain's `SessionStoreError`.
public enum KeyringError: Error, Equatable, Sendable {
  /// The Secret Service cannot be reached or refused the call; `reason` says what was found.
  case unavailable(reason: String)
  /// The kernel's keyring refused the call.
  case kernelKeyringUnavailable(reason: String)
  /// The Secret Service did not answer in time, typically a locked keyring waiting for a
  /// prompt nobody can see.
  case timedOut(seconds: Int)
}
