import Foundation
import Synchronization

/// Failed sign-ins, counted per account and per client address, and how long the next
/// attempt must wait: what stops a password from being guessed by the thousand.
///
/// The check comes before any hashing, so a throttled guess costs the server nothing. The
/// waits double with each failure past a few free ones. An account's wait stops growing at
/// `Policy.longestAccountWait`, so that one attacker cannot lock its owner out for long; an
/// address's wait grows further, as it only holds up that address. A correct password clears
/// the account's failures, never the address's: an attacker with an account of their own must
/// not be able to reset their address by signing in to it between guesses.
///
/// Guesses sent at once are all checked before any of them fails, so a burst can be hashed
/// whole; the hashing pool's queue limit (`PasswordHashingPool`) bounds that burst.
///
/// The counts live in the backend's store (`BackendStore`), not in the process: every
/// process serving the same database throttles the same guesses, and a restart forgets
/// nothing.
final class SignInThrottle: Sendable {
  struct Policy: Sendable {
    /// Failures allowed before the first wait.
    var freeFailures = 5
    /// The first wait, in seconds; each further failure doubles it.
    var firstWait: TimeInterval = 1
    var longestAccountWait: TimeInterval = 60
    var longestAddressWait: TimeInterval = 15 * 60
    /// Failures older than this are forgotten.
    var memory: TimeInterval = 15 * 60
    /// The forgotten records are dropped once every this many failures this process counts.
    var pruneEvery = 64
  }

  let policy: Policy
  private let store: any BackendStore
  private let failuresCounted = Atomic<Int>(0)

  init(policy: Policy = Policy(), store: any BackendStore) {
    self.policy = policy
    self.store = store
  }

  /// The seconds to wait before this attempt may be checked, rounded up; nil when it may go
  /// on now. `address` is nil in process, where only the account counts.
  func secondsToWait(username: String, address: String?, now: Date) async throws -> Int? {
    let recorded = try await store.signInFailures(
      keys: Self.keys(username: username, address: address))
    let waitUntil = recorded.values.filter { !forgotten($0, now: now) }.map(\.waitUntil).max()
    guard let waitUntil, waitUntil > now else { return nil }
    return Int(waitUntil.timeIntervalSince(now).rounded(.up))
  }

  func failed(username: String, address: String?, now: Date) async throws {
    try await store.recordSignInFailure(keys: Self.keys(username: username, address: address)) {
      key, current in
      var record = current ?? SignInFailures(count: 0, last: now, waitUntil: now)
      if forgotten(record, now: now) {
        record = SignInFailures(count: 0, last: now, waitUntil: now)
      }
      record.count += 1
      record.last = now
      record.waitUntil = now.addingTimeInterval(
        wait(after: record.count, forAccount: key.hasPrefix("account:")))
      return record
    }
    let counted = failuresCounted.add(1, ordering: .relaxed).newValue
    if counted % policy.pruneEvery == 0 {
      try await store.forgetSignInFailures(
        lastBefore: now.addingTimeInterval(-policy.memory), waitEndedBy: now)
    }
  }

  func succeeded(username: String) async throws {
    try await store.clearSignInFailures(key: Self.accountKey(username))
  }

  /// The wait after the `count`-th failure: none for the free ones, then the first wait,
  /// doubled each time, up to the key's longest.
  private func wait(after count: Int, forAccount: Bool) -> TimeInterval {
    let past = count - policy.freeFailures
    guard past > 0 else { return 0 }
    let longest = forAccount ? policy.longestAccountWait : policy.longestAddressWait
    // 2^past overflows nothing: past is capped long before a Double's range.
    return min(policy.firstWait * pow(2, Double(min(past - 1, 40))), longest)
  }

  private func forgotten(_ record: SignInFailures, now: Date) -> Bool {
    now.timeIntervalSince(record.last) > policy.memory && now >= record.waitUntil
  }

  private static func keys(username: String, address: String?) -> [String] {
    [accountKey(username)] + (address.map { ["address:\($0)"] } ?? [])
  }

  /// Usernames are lower case on this server; guesses at "Demo" and "demo" count together.
  private static func accountKey(_ username: String) -> String {
    "account:\(username.lowercased())"
  }
}
