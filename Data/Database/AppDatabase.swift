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

  /// What happened to an unreadable file, or to its folder, for the person to be told.
  public enum Recovery: Equatable, Sendable {
    case none
    /// The file was not a readable database; it was moved to `movedTo` and a new one made.
    case rebuilt(movedTo: String)
    /// The folder was removed mid-session; it was made again, and a new file in it.
    case folderMadeAgain(String)
    /// Another folder took the folder's place mid-session; a new file was made in it.
    case folderReplaced(String)
  }

  /// Opens the file (a rollback journal, owner-only), or, when it is corrupt or not a
  /// database at all, moves it aside and starts a new one: a cache can always be fetched
  /// again. When the connection fails later, the file is opened again the same way, its
  /// folder made again if it was removed, and `reopened` is told what was done; `now` names
  /// a file moved aside.
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
    let folder = KeptFolder(url.deletingLastPathComponent())
    let database = AppDatabase(writer, file: url) { failure in
      let change = try folder.prepare(for: url)
      let (writer, recovery) = try await openLocked(
        at: url, now: now(), checkingEveryPage: failure == .corrupt)
      switch change {
      case .none: reopened(recovery)
      case .madeAgain: reopened(.folderMadeAgain(url.deletingLastPathComponent().path))
      case .replaced: reopened(.folderReplaced(url.deletingLastPathComponent().path))
      }
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
      for suffix in ["-journal", "-wal", "-shm"] {
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
  /// not even SQLite deleting a `-journal` file, happens after it returned.
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
    // A rollback journal, and nothing of the file mapped into memory. In WAL mode SQLite
    // maps the `-shm` index into every process that opens the file; when that file turns
    // immutable or read-only under a running shell (`chattr +i`, a disk remounted), the next
    // write to the mapping is a SIGBUS, which no error handling can catch: the shell died of
    // "Bus error". With a rollback journal every write goes through write(2), and a file that
    // takes none fails with an error the shell says and survives (docs/decisions/).
    //
    // `synchronous = OFF`: no commit waits for the disk (a page shown records who was shown).
    // A crash of the app loses nothing, as the system holds what was written; only a power
    // cut can leave the file damaged, and a damaged cache is moved aside and started again,
    // as everything here can be fetched again.
    //
    // Set here rather than with GRDB's `journalMode`, whose set-up asks Foundation for the
    // WAL's size (`URL.resourceValues`), 0.6 ms of every command's start on Linux.
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA mmap_size = 0")
      try db.execute(sql: "PRAGMA synchronous = OFF")
      try leaveWALMode(db)
    }
    let queue = try DatabaseQueue(path: url.path, configuration: configuration)
    // A file that is not a database fails only when first read: read it now.
    _ = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
    if checkingEveryPage {
      let sound = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
      if sound != ["ok"] { throw DatabaseError(resultCode: .SQLITE_CORRUPT) }
    }
    // chmod rather than FileManager: its attribute dictionaries of `Any` cost 0.3 ms of
    // casts at every start, for one number.
    _ = chmod(url.path, 0o600)
    return queue
  }

  /// Turns a file an earlier version left in WAL mode back to a rollback journal. Another
  /// process that still has it open in WAL mode keeps it so: then it stays in WAL mode,
  /// without a wait, until an opening finds it alone.
  private static func leaveWALMode(_ db: Database) throws {
    guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else { return }
    try db.execute(sql: "PRAGMA busy_timeout = 100")
    defer { try? db.execute(sql: "PRAGMA busy_timeout = \(busyWaitSeconds * 1000)") }
    _ = try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
  }

  /// How long a statement waits for another process's lock before it fails.
  private static let busyWaitSeconds = 10

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
    migrator.registerMigration("v4: pages out of date, the badge counted by event") { db in
      // A page the list has moved past is kept, and shown only when the server cannot be
      // reached, said to be out of date, rather than dropped.
      try db.alter(table: "likedYouPage") { table in
        table.add(column: "outOfDate", .boolean).notNull().defaults(to: false)
      }
      // The badge counts each event once by its number, however many clients on this data
      // folder hear of it, and starts again for a reset server or a new account.
      try db.alter(table: "notificationCenterState") { table in
        table.add(column: "countedSeq", .integer)
        table.add(column: "serverAccountID", .text)
      }
    }
    return migrator
  }
}
