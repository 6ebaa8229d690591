import Foundation
import GRDB
import SystemSupport

/// The app's own database: the likes cache and the unblur state, one file in the data
/// folder. Modelled on GRDB's demo `AppDatabase`: migrations never edited once shipped,
/// opened in memory for tests. Its connection is opened once, and again only when it fails
/// (`ReopeningConnection`).
public final class AppDatabase: Sendable {
  private let connection: ReopeningConnection
  /// The file, for naming it in errors; nil in memory.
  private let file: URL?

  /// `writer` is migrated already.
  private init(_ writer: any DatabaseWriter, file: URL?, reopen: ReopeningConnection.Reopen?) {
    connection = ReopeningConnection(writer, reopen: reopen)
    self.file = file
  }

  /// What happened to an unreadable file, for the person to be told.
  public enum Recovery: Equatable, Sendable {
    case none
    /// The file was not a readable database; it was moved to `movedTo` and a new one made.
    case rebuilt(movedTo: String)
  }

  /// Opens the file (WAL, owner-only), or, when it is corrupt or not a database at all,
  /// moves it aside and starts a new one: a cache can always be fetched again. When the
  /// connection fails later, the file is opened again the same way and `reopened` is told
  /// what was done; `now` names a file moved aside.
  public static func open(
    at url: URL, now: @escaping @Sendable () -> Date = Date.init,
    reopened: @escaping @Sendable (Recovery) -> Void = { _ in }
  ) async throws -> (AppDatabase, Recovery) {
    let (writer, recovery): (any DatabaseWriter, Recovery)
    do {
      (writer, recovery) = try await openLocked(at: url, now: now(), checkingEveryPage: false)
    } catch {
      throw AppDatabaseError.map(error, file: url)
    }
    let database = AppDatabase(writer, file: url) { failure in
      let (writer, recovery) = try await openLocked(
        at: url, now: now(), checkingEveryPage: failure == .corrupt)
      reopened(recovery)
      return writer
    }
    return (database, recovery)
  }

  private static func openLocked(
    at url: URL, now: Date, checkingEveryPage: Bool
  ) async throws -> (any DatabaseWriter, Recovery) {
    // Migrated under the lock too: two processes opening a new file migrate it once.
    try await FileLock.withExclusiveLock(beside: url) {
      let (writer, recovery) = try openOrRebuild(
        at: url, now: now, checkingEveryPage: checkingEveryPage)
      try migrator.migrate(writer)
      return (writer, recovery)
    }
  }

  private static func openOrRebuild(
    at url: URL, now: Date, checkingEveryPage: Bool
  ) throws -> (any DatabaseWriter, Recovery) {
    do {
      return (try openQueue(at: url, checkingEveryPage: checkingEveryPage), .none)
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    {
      let aside = url.deletingPathExtension()
        .appendingPathExtension("corrupt-\(Int(now.timeIntervalSince1970)).sqlite")
      try FileManager.default.moveItem(at: url, to: aside)
      for suffix in ["-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: url.path + suffix)
      }
      return (try openQueue(at: url, checkingEveryPage: false), .rebuilt(movedTo: aside.path))
    }
  }

  /// A read on the current connection, opened again first if it failed. Package-wide for
  /// the tests' checks of the file (TestSupport's `isIntact`).
  package func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await connection.read(body)
    } catch {
      throw file.map { AppDatabaseError.map(error, file: $0) } ?? error
    }
  }

  /// A write transaction on the current connection, opened again first if it failed.
  func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await connection.write(body)
    } catch {
      throw file.map { AppDatabaseError.map(error, file: $0) } ?? error
    }
  }

  /// Closes the connection; the database is not used again. A command run in a process
  /// that goes on closes it when it ends (`OpenDatabases`), so that nothing of the command,
  /// not even SQLite deleting the `-wal` and `-shm` files, happens after it returned.
  public func close() async {
    await connection.close()
  }

  public static func inMemory() throws -> AppDatabase {
    let queue = try DatabaseQueue()
    try migrator.migrate(queue)
    return AppDatabase(queue, file: nil, reopen: nil)
  }

  /// `checkingEveryPage`: after SQLite found a damaged page, a file whose header still reads
  /// is checked page by page, and moved aside like a file that is not a database at all.
  private static func openQueue(at url: URL, checkingEveryPage: Bool) throws -> DatabaseQueue {
    var configuration = Configuration()
    // Several `app` processes may share the file: wait for a writer instead of failing.
    configuration.busyMode = .timeout(TimeInterval(busyWaitSeconds))
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a crash of the app or
    // a failed write loses nothing and never corrupts the file; only a power cut can undo
    // the last commits, and everything here is a cache that can be fetched again. FULL made
    // every page shown (which records who was shown) wait for the disk.
    //
    // One connection in WAL mode: other `app` processes still read while this one writes,
    // and a command opens one SQLite connection instead of a pool's writer and reader.
    // Turned on here rather than with GRDB's `journalMode = .wal`, whose set-up also asks
    // Foundation for the WAL's size (`URL.resourceValues`), which on Linux builds an NSURL
    // and casts its way through a dictionary: 0.6 ms of every command's start. What that
    // check is for, a non-empty WAL for a pool's readers and for WAL snapshots, does not
    // concern one queue.
    configuration.prepareDatabase { db in
      let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      guard journalMode == "wal" else {
        throw DatabaseError(message: "could not turn WAL mode on")
      }
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    let queue = try DatabaseQueue(path: url.path, configuration: configuration)
    // A file that is not a database fails only when first read: read it now.
    _ = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
    if checkingEveryPage {
      let sound = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
      if sound != ["ok"] { throw DatabaseError(resultCode: .SQLITE_CORRUPT) }
    }
    // chmod and stat rather than FileManager: its attribute dictionaries of `Any` cost
    // 0.3 ms of casts at every start, for one number each way.
    _ = chmod(url.path, 0o600)
    try truncateALongWAL(of: queue, at: url)
    return queue
  }

  /// How long a statement waits for another process's lock before it fails.
  private static let busyWaitSeconds = 10

  /// The WAL past which opening empties it into the file and truncates it: a few hundred
  /// commands' worth of pages shown.
  static let longWALBytes = 1 << 20

  /// Empties a WAL longer than `longWALBytes` into the file and truncates it.
  ///
  /// A command keeps the database open until the process exits (`ProcessLifetime`), so no
  /// connection ever closes, and closing is what checkpoints and deletes the WAL. The next
  /// process to open the file alone finds the WAL index stale and rebuilds it from the whole
  /// WAL (SQLite's recovery), which also forgets what was already copied into the file, so
  /// the WAL is never started again from its beginning: it grew by a page with every command
  /// (5 MB after 1,200 `likes --page 2`), and each start read all of it (9.8 ms a command
  /// at first, 12.5 ms then). Under a short busy wait: another process reading keeps the
  /// WAL, and the next opening tries again.
  private static func truncateALongWAL(of queue: DatabaseQueue, at url: URL) throws {
    let wal = url.path + "-wal"
    var status = stat()
    guard stat(wal, &status) == 0, Int(status.st_size) > longWALBytes else { return }
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA busy_timeout = 100")
      defer { try? db.execute(sql: "PRAGMA busy_timeout = \(busyWaitSeconds * 1000)") }
      _ = try? db.checkpoint(.truncate)
    }
  }

  /// Internal for the test that upgrades a file made by an earlier version.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: likes cache and unblur state") { db in
      // One row per cached page and batch size; its likes are keyed by position, so any
      // page is a primary-key range read, never an OFFSET scan.
      try db.create(table: "likedYouPage", options: .withoutRowID) { table in
        table.column("account", .text).notNull()
        table.column("batchSize", .integer).notNull()
        table.column("page", .integer).notNull()
        table.column("nextCursor", .integer)
        table.column("fetchedAt", .double).notNull()
        table.primaryKey(["account", "batchSize", "page"])
      }
      // WITHOUT ROWID: rows are stored in key order, with no second copy of the key, which
      // makes both page reads and bulk writes cheaper.
      try db.create(table: "likedYou", options: .withoutRowID) { table in
        table.column("account", .text).notNull()
        table.column("batchSize", .integer).notNull()
        table.column("page", .integer).notNull()
        table.column("rank", .integer).notNull()
        table.column("id", .text).notNull()
        table.column("userName", .text).notNull()
        table.column("avatarURL", .text)
        table.primaryKey(["account", "batchSize", "page", "rank"])
      }
      try db.create(index: "likedYouByID", on: "likedYou", columns: ["account", "id"])
      try db.create(table: "mutual") { table in
        table.column("account", .text).notNull()
        table.column("rank", .integer).notNull()
        table.column("id", .text).notNull()
        table.column("userName", .text).notNull()
        table.column("avatarURL", .text)
        table.primaryKey(["account", "rank"])
      }
      try db.create(table: "mutualList") { table in
        table.primaryKey("account", .text)
        table.column("fetchedAt", .double).notNull()
      }
      try db.create(table: "notificationCenterState") { table in
        table.primaryKey("account", .text)
        table.column("unblurEndDate", .double)
        table.column("unread", .integer).notNull().defaults(to: 0)
      }
    }
    migrator.registerMigration("v2: people shown") { db in
      // Who the person was shown, kept when pages are invalidated, so that a short id they
      // saw still resolves after a like back shifted the pages.
      try db.create(table: "shownLike", options: .withoutRowID) { table in
        table.column("account", .text).notNull()
        table.column("id", .text).notNull()
        table.column("userName", .text).notNull()
        table.column("avatarURL", .text)
        table.primaryKey(["account", "id"])
      }
      // What a cache from before v2 holds was shown too.
      try db.execute(
        sql: """
          INSERT OR IGNORE INTO shownLike (account, id, userName, avatarURL)
          SELECT account, id, userName, avatarURL FROM likedYou
          UNION ALL SELECT account, id, userName, avatarURL FROM mutual
          """)
    }
    migrator.registerMigration("v3: no index by id on likedYou") { db in
      // No query finds a cached like by its id (ids resolve through `shownLike`), yet every
      // page stored kept the index up to date.
      try db.execute(sql: "DROP INDEX IF EXISTS likedYouByID")
    }
    return migrator
  }
}
