import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log into the database file after a commit has been answered,
/// rather than inside the commit.
///
/// SQLite's own automatic checkpoint runs in the `COMMIT` that takes the log past 1,000
/// pages: for a message of 10 MB the request then waited for the copy and a second
/// `fdatasync` before it could answer (docs/decisions/ has the figures). This hook replaces that one on the
/// writer's connection (`sqlite3_wal_hook` holds one hook per connection) with the same
/// rule, and queues the checkpoint behind the write on the writer's own queue: the answer
/// goes out while the copy runs, so the app renders what it got as the disk works.
/// Durability is unchanged: the commit has already synced the log.
final class BackgroundCheckpointer: Sendable {
  /// SQLite's default for its automatic checkpoint, 1,000 pages of 4 KiB, in bytes: the
  /// rule holds whatever the file's page size.
  static let logBytesBeforeCheckpoint = 1_000 * 4_096

  /// Weak: the pool holds this checkpointer (through its configuration), and a pool that
  /// is never released never closes its file.
  private struct WeakPool: Sendable {
    weak var pool: DatabasePool?
  }
  private let knownPool = Mutex(WeakPool())
  private let scheduled = Atomic<Bool>(false)
  private let pageSize = Atomic<Int>(4_096)

  /// Installs the hook on a connection; call from `Configuration.prepareDatabase`, after
  /// any `page_size`. Readers never commit, so on theirs it never fires.
  func install(on db: Database) throws {
    pageSize.store(try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4_096, ordering: .relaxed)
    sqlite3_wal_hook(
      db.sqliteConnection,
      { context, _, _, pages in
        let checkpointer = Unmanaged<BackgroundCheckpointer>.fromOpaque(context!)
          .takeUnretainedValue()
        checkpointer.committed(logPages: Int(pages))
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  private func committed(logPages: Int) {
    let logBytes = logPages * pageSize.load(ordering: .relaxed)
    if logBytes >= Self.logBytesBeforeCheckpoint { schedule() }
  }

  /// The pool checkpoints run on; until it is known, nothing is scheduled, and a log left
  /// long is copied at the next commit past the threshold, or when the file closes.
  func start(with pool: DatabasePool) {
    knownPool.withLock { $0.pool = pool }
  }

  private func schedule() {
    guard let pool = knownPool.withLock({ $0.pool }) else { return }
    // One at a time: commits while one waits its turn are copied by it.
    guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    pool.asyncWriteWithoutTransaction { [self] db in
      scheduled.store(false, ordering: .releasing)
      // Passive: never waits for a reader, so a reader holding an old snapshot only
      // leaves the rest of the log for the next one.
      _ = try? db.checkpoint(.passive)
    }
  }
}
