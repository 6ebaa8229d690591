import GRDB
import GRDBSQLite
import Synchronization
import SystemSupport

/// The app database's one SQLite connection, opened once and opened again only when it
/// fails. The shell keeps it for as long as it runs, so the file can change under it:
/// deleted or replaced (SQLite would go on writing to the old file, which nobody reads), or
/// damaged (every read fails). Either way the next read or write opens the file again and
/// is tried once more on the new connection.
final class ReopeningConnection: Sendable {
  /// Opens the file again after `failure`, which says whether its pages are in doubt.
  typealias Reopen = @Sendable (_ failure: Failure) async throws -> any DatabaseWriter

  /// Why the connection is no longer trusted.
  enum Failure: Sendable {
    /// The path no longer names the file that is open: deleted, renamed or replaced.
    case fileMoved
    /// SQLite found pages it cannot read: the file must be checked page by page.
    case corrupt
    /// Anything else that a new connection may not have: an I/O error, a file it could not
    /// open, a file it may no longer write, or an earlier reopen that failed.
    case connection

    init?(_ error: any Error) {
      if error is FileMoved {
        self = .fileMoved
        return
      }
      guard let error = error as? DatabaseError else { return nil }
      switch error.resultCode {
      case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .corrupt
      case .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY: self = .connection
      default: return nil
      }
    }
  }

  private struct State {
    /// The connection in use, or the reopening that will give it.
    var current: Task<any DatabaseWriter, any Error>
    /// Counts reopenings, so that callers that saw the same failure reopen only once.
    var generation = 0
  }

  private let state: Mutex<State>
  /// Nil for a database in memory, which has no file to open again.
  private let reopen: Reopen?

  init(_ writer: any DatabaseWriter, reopen: Reopen?) {
    state = Mutex(State(current: Task { writer }))
    self.reopen = reopen
  }

  func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    try await withConnection { writer, checksMoves in
      try await writer.read { db in
        if checksMoves { try FileMoved.check(db) }
        return try body(db)
      }
    }
  }

  func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    try await withConnection { writer, checksMoves in
      try await writer.write { db in
        if checksMoves { try FileMoved.check(db) }
        return try body(db)
      }
    }
  }

  private func withConnection<T>(
    _ operation: (any DatabaseWriter, _ checksMoves: Bool) async throws -> T
  ) async throws -> T {
    var (connection, generation) = state.withLock { ($0.current, $0.generation) }
    guard let reopen else { return try await operation(connection.value, false) }
    do {
      return try await operation(connection.value, true)
    } catch {
      // A reopening that failed is tried again by the next caller: the folder may be back.
      guard let failure = Failure(error) ?? (error is ReopenFailed ? .connection : nil) else {
        throw error
      }
      (connection, generation) = reopened(after: generation, failure: failure, reopen: reopen)
      do {
        return try await operation(connection.value, true)
      } catch let failed as ReopenFailed {
        throw failed.cause
      }
    }
  }

  /// The connection after `generation`: a new reopening when this caller is the first to
  /// see the failure, or the one another caller started.
  private func reopened(
    after generation: Int, failure: Failure, reopen: @escaping Reopen
  ) -> (Task<any DatabaseWriter, any Error>, Int) {
    state.withLock { state in
      if state.generation == generation {
        state.generation += 1
        state.current = Task { [previous = state.current] in
          do {
            if let failed = try? await previous.value { await Self.close(failed) }
            return try await reopen(failure)
          } catch {
            throw ReopenFailed(cause: error)
          }
        }
      }
      return (state.current, state.generation)
    }
  }

  /// Closes the connection in use, once the work already given to it is done; a reopening
  /// under way is waited for and its connection closed. Called when nothing will use the
  /// database again: SQLite's last connection then deletes its `-wal` and `-shm` files.
  func close() async {
    let current = state.withLock { $0.current }
    guard let writer = try? await current.value else { return }
    // Closing checkpoints and waits for the disk: done off the cooperative pool.
    _ = try? await BlockingCall.run("app.database-close") { try writer.close() }
  }

  /// Closes the failed connection before the file is opened again, so that the new one
  /// never reads the old file's pages from the WAL at the path. The WAL it opened is emptied
  /// into the file it opened (which may be gone) and truncated, through its own descriptors;
  /// then it is kept, as the WAL and index at the path may belong to the file there now, and
  /// SQLite's last connection deletes them by name when it closes.
  private static func close(_ writer: any DatabaseWriter) async {
    _ = try? await writer.writeWithoutTransaction { db in
      var persist: Int32 = 1
      _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    // Closing checkpoints and waits for the disk: done off the cooperative pool.
    _ = try? await BlockingCall.run("app.database-close") { try writer.close() }
  }
}

/// A reopening that failed, told apart from a failure of the connection it was to give;
/// its cause is what the person is shown.
struct ReopenFailed: Error {
  let cause: any Error
}

/// The path of the open file names another file now, or none.
struct FileMoved: Error {
  /// Throws when SQLite's own check says the main file was deleted, renamed or replaced
  /// since it was opened: the `stat` of its path against the inode it holds.
  static func check(_ db: Database) throws {
    var moved: Int32 = 0
    let code = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
    if code == SQLITE_OK && moved != 0 { throw FileMoved() }
  }
}
