import Foundation
import GRDB

// Messages: the account's own conversations (the demo's invented people, and matches that
// are no account), and the one conversation it shares with each match (`talkMessage`).
extension BackendDatabase {
  /// The account's people, with their messages in the order they came: its own
  /// conversations, then its matches' that hold a message. A match's username that is also
  /// the name of one of its own conversations shows the match's.
  func allConversations(accountID: String) throws -> [(name: String, messages: [MessageRecord])] {
    try writer.read { db in try Self.allConversations(accountID: accountID, in: db) }
  }

  func conversationsVersion(accountID: String) throws -> ConversationsVersion {
    try readWithoutTransaction { db in try Self.conversationsVersion(accountID: accountID, in: db) }
  }

  func versionedConversations(accountID: String) throws -> (
    version: ConversationsVersion, conversations: [(name: String, messages: [MessageRecord])]
  ) {
    try writer.read { db in
      (
        try Self.conversationsVersion(accountID: accountID, in: db),
        try Self.allConversations(accountID: accountID, in: db)
      )
    }
  }

  /// Counts and newest ids from the indexes alone (`ConversationsVersion`).
  private static func conversationsVersion(accountID: String, in db: Database) throws
    -> ConversationsVersion
  {
    let statement = try db.cachedStatement(
      sql: """
        SELECT
          (SELECT COUNT(*) FROM conversation WHERE accountID = :me),
          (SELECT COUNT(*) FROM conversationMessage WHERE accountID = :me),
          (SELECT COALESCE(MAX(id), 0) FROM conversationMessage WHERE accountID = :me),
          (SELECT COUNT(*) FROM talkMessage WHERE lowID = :me)
            + (SELECT COUNT(*) FROM talkMessage WHERE highID = :me),
          MAX(
            (SELECT COALESCE(MAX(id), 0) FROM talkMessage WHERE lowID = :me),
            (SELECT COALESCE(MAX(id), 0) FROM talkMessage WHERE highID = :me))
        """)
    let row = try Row.fetchOne(statement, arguments: ["me": accountID])!
    return ConversationsVersion(
      ownPeople: row[0], ownMessages: row[1], newestOwnMessage: row[2], sharedMessages: row[3],
      newestSharedMessage: row[4])
  }

  private static func allConversations(accountID: String, in db: Database) throws
    -> [(name: String, messages: [MessageRecord])]
  {
    let people = try PersonRecord.filter(PersonRecord.Columns.accountID == accountID)
      .fetchAll(db)
    let messages = try MessageRecord.filter(MessageRecord.Columns.accountID == accountID)
      .order(MessageRecord.Columns.id).fetchAll(db)
    let byPerson = Dictionary(grouping: messages, by: \.person)
    return MessageRecord.conversations(
      own: people.map { ($0.name, byPerson[$0.name] ?? []) },
      shared: try Self.sharedMessages(of: accountID, in: db))
  }

  /// One person's messages, or nil for somebody the account does not talk with.
  func conversation(accountID: String, with name: String) throws -> [MessageRecord]? {
    try readWithoutTransaction { db in
      if let match = try Self.matchedAccount(username: name, of: accountID, in: db) {
        return try Self.sharedConversation(of: accountID, with: match, in: db)
      }
      return try Self.ownConversation(accountID: accountID, with: name, in: db)
    }
  }

  /// Adds a message: to a match, in the conversation both read, with a `message` event for
  /// the receiver; to somebody the account talks with already, in its own conversation.
  func addMessage(
    from account: AccountRecord, to name: String, subject: String, text: String, now: Date
  ) throws -> MessageDelivery {
    let sentAt = Int(now.timeIntervalSince1970)
    let (delivery, receiver) = try writer.write { db -> (MessageDelivery, String?) in
      if let match = try Self.matchedAccount(username: name, of: account.id, in: db) {
        // The messages before this one, then this one as written: reading back a text just
        // written (megabytes, maybe) would only copy it out of the file again.
        let earlier = try Self.sharedConversation(of: account.id, with: match, in: db)
        let (low, high) = Self.pair(account.id, match.id)
        try db.cachedStatement(
          sql: """
            INSERT INTO talkMessage (lowID, highID, authorID, subject, text, sentAt)
            VALUES (?, ?, ?, ?, ?, ?)
            """
        ).execute(arguments: [low, high, account.id, subject, text, sentAt])
        let id = db.lastInsertedRowID
        try Self.recordEvent(
          "message", personID: account.id, accountID: match.id, messageID: id, in: db)
        let sent = MessageRecord(
          id: id, accountID: account.id, person: match.username, subject: subject, text: text,
          fromMe: true, sentAt: sentAt)
        return (.stored(earlier + [sent]), match.id)
      }
      guard try Self.talksWith(name, accountID: account.id, in: db) else {
        return (.notAMatch, nil)
      }
      try PersonRecord(accountID: account.id, name: name).insert(db, onConflict: .ignore)
      let earlier = try Self.ownConversation(accountID: account.id, with: name, in: db) ?? []
      var record = MessageRecord(
        id: nil, accountID: account.id, person: name, subject: subject, text: text, fromMe: true,
        sentAt: sentAt)
      try record.insert(db)
      return (.stored(earlier + [record]), nil)
    }
    if let receiver { eventSignal.signal(receiver) }
    return delivery
  }

  func seedConversationsIfNeeded(accountID: String) throws {
    try conversationsSeeded.seedOnce(accountID: accountID, in: writer) { db in
      try SeededConversations.insert(for: accountID, into: db)
    }
  }

  /// The two ids in the order `talkMessage` keeps a pair in.
  static func pair(_ one: String, _ other: String) -> (low: String, high: String) {
    one < other ? (one, other) : (other, one)
  }

  /// The account called `username` when it is a match of `accountID`'s.
  private static func matchedAccount(username: String, of accountID: String, in db: Database)
    throws -> AccountRecord?
  {
    let statement = try db.cachedStatement(
      sql: """
        SELECT account.* FROM account JOIN incomingLike ON incomingLike.id = account.id
        WHERE account.username = ? AND incomingLike.accountID = ? AND incomingLike.status = ?
        """)
    return try AccountRecord.fetchOne(
      statement, arguments: [username, accountID, LikeStatus.matched])
  }

  /// Whether the account talks with `name` already: one of its own conversations, or an
  /// invented person it matched.
  private static func talksWith(_ name: String, accountID: String, in db: Database) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (SELECT 1 FROM conversation WHERE accountID = ? AND name = ?)
          OR EXISTS (
            SELECT 1 FROM incomingLike WHERE accountID = ? AND status = ? AND userName = ?
              AND NOT EXISTS (SELECT 1 FROM account WHERE account.id = incomingLike.id))
        """, arguments: [accountID, name, accountID, LikeStatus.matched, name]) == true
  }

  private static func sharedConversation(
    of accountID: String, with match: AccountRecord, in db: Database
  ) throws -> [MessageRecord] {
    let (low, high) = pair(accountID, match.id)
    let statement = try db.cachedStatement(
      sql: """
        SELECT id, authorID, subject, text, sentAt FROM talkMessage
        WHERE lowID = ? AND highID = ? ORDER BY id
        """)
    // Columns by position, as `sharedMessages` reads them: every send reads the whole
    // conversation back, inside the writer.
    var messages: [MessageRecord] = []
    let rows = try Row.fetchCursor(statement, arguments: [low, high])
    while let row = try rows.next() {
      messages.append(
        MessageRecord(
          id: row[0], accountID: accountID, person: match.username, subject: row[2],
          text: row[3], fromMe: (row[1] as String) == accountID, sentAt: row[4]))
    }
    return messages
  }

  /// Every message of the account's matches, oldest first, each under its match's username.
  private static func sharedMessages(of accountID: String, in db: Database) throws
    -> [MessageRecord]
  {
    let statement = try db.cachedStatement(
      sql: """
        SELECT m.id, m.authorID, m.subject, m.text, m.sentAt, other.username FROM talkMessage m
        JOIN account other ON other.id = m.highID WHERE m.lowID = ?
        UNION ALL
        SELECT m.id, m.authorID, m.subject, m.text, m.sentAt, other.username FROM talkMessage m
        JOIN account other ON other.id = m.lowID WHERE m.highID = ?
        ORDER BY 1
        """)
    // Columns by position: a thousand rows read by name spend their time folding the
    // names' case to find each column.
    var messages: [MessageRecord] = []
    let rows = try Row.fetchCursor(statement, arguments: [accountID, accountID])
    while let row = try rows.next() {
      messages.append(
        MessageRecord(
          id: row[0], accountID: accountID, person: row[5], subject: row[2], text: row[3],
          fromMe: (row[1] as String) == accountID, sentAt: row[4]))
    }
    return messages
  }

  /// A message of `talkMessage`, whose id is in the row's column `idColumn`.
  static func sharedMessage(
    _ row: Row, readBy accountID: String, person: String, idColumn: String = "id"
  ) -> MessageRecord {
    MessageRecord(
      id: row[idColumn], accountID: accountID, person: person, subject: row["subject"],
      text: row["text"], fromMe: (row["authorID"] as String) == accountID, sentAt: row["sentAt"])
  }

  private static func ownConversation(accountID: String, with name: String, in db: Database)
    throws -> [MessageRecord]?
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
