import GRDB

/// Migration v6. Until then every account saw one shared set of conversations, so whatever
/// one account sent, every other read. Now each account has its own.
///
/// What the shared tables held was the demo account's world (the seeds, and what was sent
/// while it was the only account), so it becomes the demo account's; every other account
/// starts from its own copy of the seeds on its first messages request.
enum ConversationMigration {
  static func giveEachAccountItsOwn(_ db: Database) throws {
    try db.create(table: "conversation") { table in
      table.column("accountID", .text).notNull()
        .references(AccountRecord.databaseTableName, onDelete: .cascade)
      // BINARY collation: names that differ in any byte are different people.
      table.column("name", .text).notNull()
      table.primaryKey(["accountID", "name"])
    }
    try db.create(table: "conversationMessage") { table in
      table.autoIncrementedPrimaryKey("id")
      table.column("accountID", .text).notNull()
      table.column("person", .text).notNull()
      table.column("subject", .text).notNull()
      table.column("text", .text).notNull()
      table.foreignKey(
        ["accountID", "person"], references: "conversation", columns: ["accountID", "name"],
        onDelete: .cascade)
    }
    try db.create(
      index: "conversationMessageByPerson", on: "conversationMessage",
      columns: ["accountID", "person"])
    try db.create(table: "conversationsSeeded") { table in
      table.primaryKey("accountID", .text)
        .references(AccountRecord.databaseTableName, onDelete: .cascade)
    }
    if let demoID = try String.fetchOne(
      db, sql: "SELECT id FROM account WHERE username = ?",
      arguments: [DemoPeople.username]),
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person")! > 0
    {
      try db.execute(
        sql: "INSERT INTO conversation (accountID, name) SELECT ?, name FROM person",
        arguments: [demoID])
      try db.execute(
        sql: """
          INSERT INTO conversationMessage (accountID, person, subject, text)
          SELECT ?, person, subject, text FROM message ORDER BY id
          """, arguments: [demoID])
      try db.execute(
        sql: "INSERT INTO conversationsSeeded (accountID) VALUES (?)", arguments: [demoID])
    }
    try db.drop(table: "message")
    try db.drop(table: "person")
  }
}
