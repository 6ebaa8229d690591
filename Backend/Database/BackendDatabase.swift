import Foundation
import GRDB
import SystemSupport

/// The embedded backend's own state: accounts and issued tokens, in one SQLite file.
///
/// Modelled on GRDB's demo `AppDatabase`: one type wraps the writer, runs the migrations
/// (a shipped migration is never edited; add "v2"), and exposes named operations.
/// A `DatabasePool` in WAL mode lets several `app` processes use the same file at once.
final class BackendDatabase: Sendable {
  let writer: any DatabaseWriter
  let likesSeeded = SeededAccounts(table: "likesSeeded")
  let conversationsSeeded = SeededAccounts(table: "conversationsSeeded")
  /// Signalled by this process's writes as they commit, and by its watcher for the writes
  /// of other processes on the file.
  let eventSignal: EventSignal

  init(_ writer: any DatabaseWriter) throws {
    self.writer = writer
    eventSignal = EventSignal(watcher: SQLiteEventWatcher(reader: writer))
    try Self.migrator.migrate(writer)
  }

  /// Opens (creating if needed) the backend file, readable by its owner only.
  /// `statementTook`, when given, is told how long each SQL statement took (a metric).
  static func open(
    at url: URL, statementTook: (@Sendable (Duration) -> Void)? = nil
  ) async throws -> BackendDatabase {
    // Processes started together must not migrate a new file at the same time.
    try await FileLock.withExclusiveLock(beside: url) {
      do {
        let checkpointer = BackgroundCheckpointer()
        let pool = try DatabasePool(
          path: url.path,
          configuration: configuration(checkpointer: checkpointer, statementTook: statementTook))
        // GRDB's pool sets `synchronous = NORMAL` on its writer: the log was synced only by
        // checkpoints, so a small write was answered before anything reached the disk. FULL
        // syncs the log at every commit: what the backend answered as stored survives a
        // power cut (docs/decisions/).
        try pool.writeWithoutTransaction { db in
          try db.execute(sql: "PRAGMA synchronous = FULL")
          // 64 MiB of pages for the writer, not SQLite's 2 MiB: a message to a match is
          // answered with its conversation, read inside the write, one page per message
          // (conversations interleave in the table). The writer's cache outlives its own
          // commits, where a reader's is emptied by every commit of another connection, so
          // the conversations being written stay in memory (docs/decisions/).
          try db.execute(sql: "PRAGMA cache_size = -65536")
        }
        checkpointer.start(with: pool)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return try BackendDatabase(pool)
      } catch let error as DatabaseError {
        throw BackendFileError(file: url, sqlite: error)
      }
    }
  }

  private static func configuration(
    checkpointer: BackgroundCheckpointer, statementTook: (@Sendable (Duration) -> Void)?
  ) -> Configuration {
    var configuration = Configuration()
    // Another `app` process may be writing: wait for it rather than fail "database is locked".
    configuration.busyMode = .timeout(10)
    // A reader for every lane of the executor that reads: a request never waits for a
    // reader another request holds (five, GRDB's default, queued reads behind a semaphore).
    configuration.maximumReaderCount = RequestExecutor.defaultLaneCount
    configuration.prepareDatabase { db in
      // Pages of 16 KiB rather than SQLite's 4 KiB, for a new file (an existing one keeps
      // its own: WAL mode cannot change it). A message of 10 MB is a chain of pages, each
      // written to the log, read back and written again at the checkpoint, one system call
      // a piece; a quarter as many calls, for a little more per small commit
      // (docs/decisions/).
      try db.execute(sql: "PRAGMA page_size = 16384")
      try checkpointer.install(on: db)
      if let statementTook {
        db.trace(options: .profile) { event in
          if case .profile(_, let seconds) = event { statementTook(.seconds(seconds)) }
        }
      }
    }
    return configuration
  }

  static func inMemory() throws -> BackendDatabase {
    try BackendDatabase(DatabaseQueue())
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: accounts and tokens") { db in
      try db.create(table: AccountRecord.databaseTableName) { table in
        table.primaryKey("id", .text)
        table.column("username", .text).notNull().unique()
        table.column("name", .text).notNull()
        table.column("passwordHash", .text).notNull()
      }
      try db.create(table: TokenRecord.databaseTableName) { table in
        // Only a SHA-256 of each token is kept: this file never holds a usable token.
        table.primaryKey("tokenHash", .text)
        table.column("accountID", .text).notNull()
          .references(AccountRecord.databaseTableName, onDelete: .cascade)
        table.column("createdAt", .integer).notNull()
        table.column("expiresIn", .integer).notNull()
        table.column("scope", .text).notNull()
      }
    }
    migrator.registerMigration("v2: messages") { db in
      // Table names as shipped: the records now map v6's tables.
      try db.create(table: "person") { table in
        // BINARY collation: names that differ in any byte are different people.
        table.primaryKey("name", .text)
      }
      try db.create(table: "message") { table in
        table.autoIncrementedPrimaryKey("id")
        table.column("person", .text).notNull().indexed()
          .references("person", onDelete: .cascade)
        table.column("subject", .text).notNull()
        table.column("text", .text).notNull()
      }
      // Shared by every account until v6 gave each its own (`ConversationMigration`).
      try SeededConversations.insertShared(into: db)
    }
    migrator.registerMigration("v3: likes") { db in
      try db.create(table: "incomingLike") { table in
        table.primaryKey("id", .text)
        table.column("accountID", .text).notNull()
          .references(AccountRecord.databaseTableName, onDelete: .cascade)
        table.column("userName", .text).notNull()
        table.column("avatarURL", .text)
        // Order of arrival; a like back gets a new one as the match's order.
        table.column("seq", .integer).notNull()
        table.column("status", .text).notNull()  // pending, matched, skipped
        table.column("matchedSeq", .integer)
      }
      try db.create(
        index: "incomingLikeByAccount", on: "incomingLike", columns: ["accountID", "status", "seq"])
      try db.create(table: "likesSeeded") { table in
        table.primaryKey("accountID", .text)
      }
    }
    migrator.registerMigration("v4: realtime events") { db in
      try db.create(table: "likeEvent") { table in
        table.autoIncrementedPrimaryKey("seq")
        table.column("accountID", .text).notNull().indexed()
          .references(AccountRecord.databaseTableName, onDelete: .cascade)
        table.column("type", .text).notNull()  // likedYouInserted, mutualMatch
        table.column("likeID", .text).notNull()
      }
      // When each account's next generated like is due.
      try db.create(table: "likeGenerator") { table in
        table.primaryKey("accountID", .text)
        table.column("nextDueAt", .double).notNull()
      }
    }
    migrator.registerMigration("v5: push registration") { db in
      // Sessions for the push backend, known by their hash like access tokens.
      try db.create(table: "pushSession") { table in
        table.primaryKey("sessionHash", .text)
        table.column("accountID", .text).notNull()
          .references(AccountRecord.databaseTableName, onDelete: .cascade)
      }
      // One push registration per account: the device it belongs to.
      try db.create(table: "pushRegistration") { table in
        table.primaryKey("accountID", .text)
          .references(AccountRecord.databaseTableName, onDelete: .cascade)
        table.column("uuid", .text).notNull()
        table.column("token", .text).notNull()
      }
      // The vendor knows devices only.
      try db.create(table: "vendorRegistration") { table in
        table.primaryKey("uuid", .text)
      }
    }
    migrator.registerMigration("v6: conversations per account") { db in
      try ConversationMigration.giveEachAccountItsOwn(db)
    }
    migrator.registerMigration("v7: sign-in failures") { db in
      // The throttle's counts, in the database every process serving it shares: a guess
      // counts whichever process it reaches, and survives a restart.
      try db.create(table: "signInFailure", options: .withoutRowID) { table in
        table.primaryKey("key", .text)  // "account:NAME" or "address:IP"
        table.column("count", .integer).notNull()
        table.column("lastAt", .double).notNull()
        table.column("waitUntil", .double).notNull()
      }
    }
    migrator.registerMigration("v8: like order indexes") { db in
      // Every like made or answered takes the next number past both columns' largest
      // (`nextSeq`). Without an index each `MAX` read the whole table: seeding 1,000
      // accounts (50 likes each) took minutes, each insert slower than the one before.
      try db.create(index: "incomingLikeBySeq", on: "incomingLike", columns: ["seq"])
      try db.create(index: "incomingLikeByMatchedSeq", on: "incomingLike", columns: ["matchedSeq"])
    }
    migrator.registerMigration("v9: people meet") { db in
      try PeopleMigration.letAccountsMeet(db)
    }
    return migrator
  }
}

// MARK: - Named operations

extension BackendDatabase {
  func createAccount(_ account: AccountRecord) throws -> AccountCreation {
    try writer.write { db in
      if try AccountRecord.filter(AccountRecord.Columns.username == account.username).fetchCount(db)
        > 0
      {
        return .usernameTaken
      }
      try account.insert(db)
      // The order accounts joined in, which `/people` lists newest first (the rowid of a
      // table keyed by text may change at a VACUUM).
      try db.execute(
        sql: """
          UPDATE account SET joinedSeq = (SELECT COALESCE(MAX(joinedSeq), 0) + 1 FROM account)
          WHERE id = ?
          """, arguments: [account.id])
      return .created
    }
  }

  func account(username: String) throws -> AccountRecord? {
    try writer.read { db in
      try AccountRecord.filter(AccountRecord.Columns.username == username).fetchOne(db)
    }
  }

  /// Whether a read goes through: what `GET /readyz` asks.
  func answers() throws -> Bool {
    try writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") == 1 }
  }

  /// Closes the file's connections now, rather than when the last holder lets the pool go
  /// (the event watcher held it for a second after the last poll). The backend calls it
  /// once no request runs; the watcher is stopped first, as GRDB crashes a read that
  /// begins while the pool closes. SQLite's last connection copies the log into the file
  /// and deletes the `-wal` and `-shm` files, so the folder holds the one file. A close
  /// that fails leaves them as a crash would; the next opening recovers them.
  func close() async {
    await eventSignal.stopWatching()
    // GRDB closes a pool's writer first, while its readers still hold the file; the last to
    // close was then a reader, which opens the file read-only and cannot copy the log back,
    // so the `-wal` and `-shm` files stayed. Releasing the readers first leaves the writer
    // to close last.
    (writer as? DatabasePool)?.releaseMemory()
    try? writer.close()
  }

  func hasAccounts() throws -> Bool {
    try writer.read { db in try AccountRecord.fetchCount(db) > 0 }
  }

  func insert(_ token: TokenRecord) throws {
    try writer.write { db in try token.insert(db) }
  }

  /// The account a token belongs to, if the token exists and has not expired at `now`.
  /// Every signed-in request asks this: one prepared statement, kept by the connection,
  /// rather than a query built and compiled for each request, and read without a
  /// transaction (see `readWithoutTransaction`).
  func account(tokenHash: String, now: Date) throws -> AccountRecord? {
    try readWithoutTransaction { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT account.* FROM token JOIN account ON account.id = token.accountID
          WHERE token.tokenHash = ? AND token.createdAt + token.expiresIn > ?
          """)
      return try AccountRecord.fetchOne(
        statement, arguments: [tokenHash, Int(now.timeIntervalSince1970)])
    }
  }

  /// A read outside any transaction, for one statement (SQLite reads a statement from one
  /// snapshot of the file anyway) or statements that need not see the same snapshot. The
  /// BEGIN and COMMIT that `read` puts around them cost more than the statements of the most
  /// asked reads.
  func readWithoutTransaction<T>(_ statement: (Database) throws -> T) throws -> T {
    try writer.unsafeRead(statement)
  }

  /// Returns whether the token existed.
  func deleteToken(hash: String) throws -> Bool {
    try writer.write { db in try TokenRecord.deleteOne(db, key: hash) }
  }
}
