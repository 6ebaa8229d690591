import GRDB

/// Migration v9: accounts meet each other (API.md section 5). Every row that exists stays.
///
/// - An account joins in an order (`joinedSeq`), which `/people` lists newest first; the
///   accounts there before are numbered in the order SQLite stored them.
/// - A like is kept in its receiver's list (`incomingLike`), and an account's id is now in
///   many lists (everybody it liked), so the list is keyed by its account and the id,
///   where the id alone was the key. A person there has a display name where it is an
///   account.
/// - Passes and blocks of accounts get tables of their own.
/// - A conversation between two accounts is stored once (`talkMessage`, keyed by the pair's
///   ids in order), with its author and time; a message of an account's own conversations
///   gains the two as well, unknown for those written before.
/// - A `message` event names its message.
enum PeopleMigration {
  static func letAccountsMeet(_ db: Database) throws {
    try db.alter(table: "account") { table in table.add(column: "joinedSeq", .integer) }
    try db.execute(sql: "UPDATE account SET joinedSeq = rowid")
    try db.create(index: "accountByJoinedSeq", on: "account", columns: ["joinedSeq"])
    try keyLikesByTheirAccount(db)
    try db.create(table: "personPass", options: .withoutRowID) { table in
      table.column("accountID", .text).notNull()
        .references(AccountRecord.databaseTableName, onDelete: .cascade)
      table.column("personID", .text).notNull()
      table.primaryKey(["accountID", "personID"])
    }
    try db.create(table: "personBlock", options: .withoutRowID) { table in
      table.column("blockerID", .text).notNull()
        .references(AccountRecord.databaseTableName, onDelete: .cascade)
      table.column("blockedID", .text).notNull()
      table.primaryKey(["blockerID", "blockedID"])
    }
    try db.create(table: "talkMessage") { table in
      table.autoIncrementedPrimaryKey("id")
      // The pair's ids, the smaller first: one conversation for the two.
      table.column("lowID", .text).notNull()
        .references(AccountRecord.databaseTableName, onDelete: .cascade)
      table.column("highID", .text).notNull()
        .references(AccountRecord.databaseTableName, onDelete: .cascade)
      table.column("authorID", .text).notNull()
      table.column("subject", .text).notNull()
      table.column("text", .text).notNull()
      table.column("sentAt", .integer).notNull()
    }
    try db.create(
      index: "talkMessageByPair", on: "talkMessage", columns: ["lowID", "highID", "id"])
    try db.create(index: "talkMessageByHigh", on: "talkMessage", columns: ["highID", "id"])
    try db.alter(table: "conversationMessage") { table in
      table.add(column: "fromMe", .boolean)
      table.add(column: "sentAt", .integer)
    }
    try db.alter(table: "likeEvent") { table in table.add(column: "messageID", .integer) }
  }

  /// SQLite cannot change a table's key: the list is made again under the new one.
  private static func keyLikesByTheirAccount(_ db: Database) throws {
    try db.create(table: "incomingLikeKeyed") { table in
      table.column("id", .text).notNull()
      table.column("accountID", .text).notNull()
        .references(AccountRecord.databaseTableName, onDelete: .cascade)
      table.column("userName", .text).notNull()
      table.column("avatarURL", .text)
      table.column("name", .text)
      table.column("seq", .integer).notNull()
      table.column("status", .text).notNull()
      table.column("matchedSeq", .integer)
      table.primaryKey(["accountID", "id"])
    }
    try db.execute(
      sql: """
        INSERT INTO incomingLikeKeyed (id, accountID, userName, avatarURL, seq, status, matchedSeq)
        SELECT id, accountID, userName, avatarURL, seq, status, matchedSeq FROM incomingLike
        """)
    try db.drop(table: "incomingLike")
    try db.rename(table: "incomingLikeKeyed", to: "incomingLike")
    try db.create(
      index: "incomingLikeByAccount", on: "incomingLike", columns: ["accountID", "status", "seq"])
    try db.create(index: "incomingLikeBySeq", on: "incomingLike", columns: ["seq"])
    try db.create(index: "incomingLikeByMatchedSeq", on: "incomingLike", columns: ["matchedSeq"])
  }
}
