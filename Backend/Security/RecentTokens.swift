import Foundation
import Synchronization

/// The accounts of bearer tokens checked in the last second, so that a client's requests in a
/// burst cost one token lookup rather than one each.
///
/// Why a second, and no more: another instance (or another `app` process on the same file)
/// may revoke a token, and every instance must refuse it within a second. A revoke here is
/// forgotten at once. An entry is kept for `lifetime` on the backend's own clock, so a test
/// clock decides when it goes, and a clock that steps back makes every entry stale.
///
/// A token may be honoured for up to `lifetime` after it expires; tokens live 30 days.
final class RecentTokens: Sendable {
  private struct Entry {
    let account: AccountRecord
    let checkedAt: Date
  }

  static let lifetime: TimeInterval = 1
  /// Past this many entries, stale ones are dropped, then all of them if none was: memory
  /// stays bounded however many tokens a stranger makes up (only checked ones are kept).
  static let capacity = 10_000

  private let entries = Mutex<[String: Entry]>([:])

  /// The account `tokenHash` was found to belong to within the last second, if it was.
  func account(tokenHash: String, now: Date) -> AccountRecord? {
    entries.withLock { entries in
      guard let entry = entries[tokenHash] else { return nil }
      return Self.isFresh(entry, now: now) ? entry.account : nil
    }
  }

  func remember(_ account: AccountRecord, tokenHash: String, now: Date) {
    entries.withLock { entries in
      if entries.count >= Self.capacity {
        entries = entries.filter { Self.isFresh($0.value, now: now) }
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
      }
      entries[tokenHash] = Entry(account: account, checkedAt: now)
    }
  }

  /// A token revoked or signed out here is refused at once, not a second later.
  func forget(tokenHash: String) {
    _ = entries.withLock { $0.removeValue(forKey: tokenHash) }
  }

  /// How many entries it holds, stale ones included.
  var count: Int { entries.withLock { $0.count } }

  private static func isFresh(_ entry: Entry, now: Date) -> Bool {
    entry.checkedAt <= now && now.timeIntervalSince(entry.checkedAt) < lifetime
  }
}
