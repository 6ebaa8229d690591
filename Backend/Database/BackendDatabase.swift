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
        // power cut (docs/decisions.md).
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
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
      // (docs/decisions.md).
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

// MARK: - Messages

extension BackendDatabase {
  /// The account's people, with their messages in the order they came.
  func allConversations(accountID: String) throws -> [(name: String, messages: [MessageRecord])] {
    try writer.read { db in
      let people = try PersonRecord.filter(PersonRecord.Columns.accountID == accountID)
        .fetchAll(db)
      let messages = try MessageRecord.filter(MessageRecord.Columns.accountID == accountID)
        .order(MessageRecord.Columns.id).fetchAll(db)
      let byPerson = Dictionary(grouping: messages, by: \.person)
      return people.map { ($0.name, byPerson[$0.name] ?? []) }
    }
  }

  /// One person's messages in the account's conversations, or nil for somebody unknown.
  func conversation(accountID: String, with name: String) throws -> [MessageRecord]? {
    // Mostly one statement; when two, a person added between them is only seen a moment
    // early, and nobody is ever removed.
    return try readWithoutTransaction { db in
      try Self.conversation(accountID: accountID, with: name, in: db)
    }
  }

  /// Adds a message to the account's conversation with `name`, creating the person if
  /// needed, and returns that person's messages after it.
  func addMessage(accountID: String, to name: String, subject: String, text: String) throws
    -> [MessageRecord]
  {
    try writer.write { db in
      try PersonRecord(accountID: accountID, name: name).insert(db, onConflict: .ignore)
      // The messages before this one, then this one as written: ids are AUTOINCREMENT, so
      // it sorts last, and reading back a text just written (megabytes, maybe) would only
      // copy it out of the file again.
      let earlier = try Self.conversation(accountID: accountID, with: name, in: db) ?? []
      var record = MessageRecord(
        id: nil, accountID: accountID, person: name, subject: subject, text: text)
      try record.insert(db)
      return earlier + [record]
    }
  }

  func seedConversationsIfNeeded(accountID: String) throws {
    try conversationsSeeded.seedOnce(accountID: accountID, in: writer) { db in
      try SeededConversations.insert(for: accountID, into: db)
    }
  }

  private static func conversation(accountID: String, with name: String, in db: Database) throws
    -> [MessageRecord]?
  {
    // Every read of a conversation: statements compiled once per connection, and the
    // person looked up only when there are no messages, to tell nobody from nothing yet.
    let messages = try db.cachedStatement(
      sql: "SELECT * FROM conversationMessage WHERE accountID = ? AND person = ? ORDER BY id")
    let found = try MessageRecord.fetchAll(messages, arguments: [accountID, name])
    if !found.isEmpty { return found }
    let person = try db.cachedStatement(
      sql: "SELECT EXISTS (SELECT 1 FROM conversation WHERE accountID = ? AND name = ?)")
    return try Bool.fetchOne(person, arguments: [accountID, name]) == true ? [] : nil
  }
}
