import GRDB
import Synchronization

/// Accounts whose starting data (likes, conversations) is in the database. Seeding happens
/// once and is never undone, so an account the database has said yes for is not asked about
/// again: every likes and messages request used to spend a read on it.
final class SeededAccounts: Sendable {
  private let table: String
  private let known = Mutex<Set<String>>([])

  /// `table` has one row per seeded account, keyed by `accountID`.
  init(table: String) {
    self.table = table
  }

  /// Runs `seed` in the write that marks the account as seeded, unless it is already.
  func seedOnce(
    accountID: String, in writer: any DatabaseWriter, seed: (Database) throws -> Void
  ) throws {
    if known.withLock({ $0.contains(accountID) }) { return }
    let table = table
    let seeded = try writer.read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE accountID = ?)",
        arguments: [accountID])!
    }
    if !seeded {
      try writer.write { db in
        // Marked first, inside the write: two first requests at once seed once.
        try db.execute(
          sql: "INSERT OR IGNORE INTO \(table) (accountID) VALUES (?)", arguments: [accountID])
        if db.changesCount > 0 { try seed(db) }
      }
    }
    known.withLock { _ = $0.insert(accountID) }
  }
}
