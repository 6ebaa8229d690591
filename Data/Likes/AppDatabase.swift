import Foundation
import GRDB
import SystemSupport

/// The app's own database: the likes cache and the unblur state, one file in the data
/// folder. Modelled on GRDB's demo `AppDatabase`: migrations never edited once shipped,
/// opened in memory for tests.
public final class AppDatabase: Sendable {
  let writer: any DatabaseWriter

  init(_ writer: any DatabaseWriter) throws {
    self.writer = writer
    try Self.migrator.migrate(writer)
  }

  /// What happened to an unreadable file, for the person to be told.
  public enum Recovery: Equatable, Sendable {
    case none
    /// The file was not a readable database; it was moved to `movedTo` and a new one made.
    case rebuilt(movedTo: String)
  }

  /// Opens the file (WAL, owner-only), or, when it is corrupt or not a database at all,
  /// moves it aside and starts a new one: a cache can always be fetched again.
  public static func open(at url: URL, now: Date) async throws -> (AppDatabase, Recovery) {
    try await FileLock.withExclusiveLock(beside: url) { try openOrRebuild(at: url, now: now) }
  }

  private static func openOrRebuild(at url: URL, now: Date) throws -> (AppDatabase, Recovery) {
    do {
      return (try openPool(at: url), .none)
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    {
      let aside = url.deletingPathExtension()
        .appendingPathExtension("corrupt-\(Int(now.timeIntervalSince1970)).sqlite")
      try FileManager.default.moveItem(at: url, to: aside)
      for suffix in ["-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: url.path + suffix)
      }
      return (try openPool(at: url), .rebuilt(movedTo: aside.path))
    }
  }

  /// SQLite's own check of every page and index: true when the file is sound.
  public func isIntact() throws -> Bool {
    try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"] }
  }

  public static func inMemory() throws -> AppDatabase {
    try AppDatabase(DatabaseQueue())
  }

  private static func openPool(at url: URL) throws -> AppDatabase {
    var configuration = Configuration()
    // Several `app` processes may share the file: wait for a writer instead of failing.
    configuration.busyMode = .timeout(10)
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a crash of the app or
    // a failed write loses nothing and never corrupts the file; only a power cut can undo
    // the last commits, and everything here is a cache that can be fetched again. FULL made
    // every page shown (which records who was shown) wait for the disk.
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
    // One connection in WAL mode: other `app` processes still read while this one writes,
    // and a command opens one SQLite connection instead of a pool's writer and reader.
    configuration.journalMode = .wal
    let queue = try DatabaseQueue(path: url.path, configuration: configuration)
    // A file that is not a database fails only when first read: read it now.
    _ = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
    let database = try AppDatabase(queue)
    try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    return database
  }

  private static var migrator: DatabaseMigrator {
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
    return migrator
  }
}
