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
    /// Past this many remembered keys, the forgotten ones are dropped at the next failure.
    var pruneAbove = 10_000
  }

  private enum Key: Hashable {
    case account(String)
    case address(String)
  }

  private struct Failures {
    var count: Int
    var last: Date
    var waitUntil: Date
  }

  let policy: Policy
  private let failures = Mutex<[Key: Failures]>([:])

  init(policy: Policy = Policy()) {
    self.policy = policy
  }

  /// The seconds to wait before this attempt may be checked, rounded up; nil when it may go
  /// on now. `address` is nil in process, where only the account counts.
  func secondsToWait(username: String, address: String?, now: Date) -> Int? {
    let keys = Self.keys(username: username, address: address)
    let waitUntil = failures.withLock { failures in
      keys.compactMap { key -> Date? in
        guard let record = failures[key], !forgotten(record, now: now) else { return nil }
        return record.waitUntil
      }.max()
    }
    guard let waitUntil, waitUntil > now else { return nil }
    return Int(waitUntil.timeIntervalSince(now).rounded(.up))
  }

  func failed(username: String, address: String?, now: Date) {
    failures.withLock { failures in
      if failures.count > policy.pruneAbove {
        failures = failures.filter { !forgotten($0.value, now: now) }
      }
      for key in Self.keys(username: username, address: address) {
        var record = failures[key] ?? Failures(count: 0, last: now, waitUntil: now)
        if forgotten(record, now: now) { record = Failures(count: 0, last: now, waitUntil: now) }
        record.count += 1
        record.last = now
        record.waitUntil = now.addingTimeInterval(wait(after: record.count, for: key))
        failures[key] = record
      }
    }
  }

  func succeeded(username: String) {
    _ = failures.withLock { $0.removeValue(forKey: .account(Self.account(username))) }
  }

  /// The wait after the `count`-th failure: none for the free ones, then the first wait,
  /// doubled each time, up to the key's longest.
  private func wait(after count: Int, for key: Key) -> TimeInterval {
    let past = count - policy.freeFailures
    guard past > 0 else { return 0 }
    let longest =
      switch key {
      case .account: policy.longestAccountWait
      case .address: policy.longestAddressWait
      }
    // 2^past overflows nothing: past is capped long before a Double's range.
    return min(policy.firstWait * pow(2, Double(min(past - 1, 40))), longest)
  }

  private func forgotten(_ record: Failures, now: Date) -> Bool {
    now.timeIntervalSince(record.last) > policy.memory && now >= record.waitUntil
  }

  private static func keys(username: String, address: String?) -> [Key] {
    [.account(account(username))] + (address.map { [.address($0)] } ?? [])
  }

  /// Usernames are lower case on this server; guesses at "Demo" and "demo" count together.
  private static func account(_ username: String) -> String { username.lowercased() }
}
