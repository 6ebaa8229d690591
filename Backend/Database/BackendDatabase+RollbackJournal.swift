import Foundation
import GRDB
import SystemSupport

/// How a backend file keeps its journal.
public enum SQLiteJournal: Sendable {
  /// WAL mode, with a pool of readers beside the writer: `app serve`, where requests read at
  /// once from many threads.
  case writeAheadLog
  /// A rollback journal on one connection, with nothing of the file mapped into memory: the
  /// embedded backend, inside `app`. In WAL mode SQLite maps the `-shm` index; a file turned
  /// immutable or read-only under a running shell then makes the next write to the mapping a
  /// SIGBUS, which ends the process. With a rollback journal such a write fails with an
  /// error the app can say, and the shell goes on (docs/decisions/).
  case rollback
}

extension BackendDatabase {
  /// Opens (creating if needed) the backend file with a rollback journal, readable by its
  /// owner only. A file left in WAL mode turns back, unless another process (an `app serve`
  /// on the same folder) has it open so; then it stays in WAL mode, without a wait.
  static func openWithRollbackJournal(at url: URL) async throws -> BackendDatabase {
    try await FileLock.withExclusiveLock(beside: url) {
      do {
        var configuration = Configuration()
        // Another `app` process may be writing: wait for it rather than fail "locked".
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
          // A new file's pages, as `app serve` makes them (`page_size` before the journal).
          try db.execute(sql: "PRAGMA page_size = 16384")
          try db.execute(sql: "PRAGMA mmap_size = 0")
          // What the backend answers as stored survives a power cut, as on `app serve`.
          try db.execute(sql: "PRAGMA synchronous = FULL")
          guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else { return }
          try db.execute(sql: "PRAGMA busy_timeout = 100")
          defer { try? db.execute(sql: "PRAGMA busy_timeout = 10000") }
          _ = try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        _ = chmod(url.path, 0o600)
        return try BackendDatabase(queue)
      } catch let error as DatabaseError {
        throw BackendFileError(file: url, sqlite: error)
      }
    }
  }
}
