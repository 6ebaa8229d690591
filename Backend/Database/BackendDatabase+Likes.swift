import Foundation
import GRDB

extension BackendDatabase {
  /// Gives an account its starting likes, once.
  func seedLikesIfNeeded(accountID: String, makeLikes: () -> [IncomingLike]) throws {
    try likesSeeded.seedOnce(accountID: accountID, in: writer) { db in
      for like in makeLikes() {
        try Self.insert(like, for: accountID, in: db)
      }
    }
  }

  /// Pending likes, newest first: one page, and whether another follows.
  func pendingLikes(accountID: String, page: Int, batchSize: Int) throws -> (
    likes: [IncomingLike], hasMore: Bool
  ) {
    // A page whose offset does not fit in an Int lies past any list that can exist: empty.
    let (offset, overflowed) = (page - 1).multipliedReportingOverflow(by: batchSize)
    guard !overflowed else { return ([], false) }
    return try readWithoutTransaction { db in
      // Every likes page: compiled once per connection.
      let statement = try db.cachedStatement(
        sql: """
          SELECT id, userName, avatarURL, name FROM incomingLike
          WHERE accountID = ? AND status = 'pending' ORDER BY seq DESC LIMIT ? OFFSET ?
          """)
      let rows = try Row.fetchAll(statement, arguments: [accountID, batchSize + 1, offset])
      let likes = rows.prefix(batchSize).map(Self.like)
      return (Array(likes), rows.count > batchSize)
    }
  }

  /// Marks a pending like as matched; nil when there is no such pending like. A like from an
  /// account is a match for both (`matchAccounts`).
  func matchLike(id: String, by account: AccountRecord) throws -> IncomingLike? {
    let (matched, signalled) = try writer.write { db -> (IncomingLike?, [String]) in
      guard let row = try Self.pendingRow(id: id, accountID: account.id, in: db) else {
        return (nil, [])
      }
      let like = Self.like(row)
      if let liker = try AccountRecord.fetchOne(db, key: like.id) {
        try Self.matchAccounts(account, liker, in: db)
        return (like, [account.id, liker.id])
      }
      // The stored id, not the one typed: ids are matched without regard to case.
      try Self.markMatched(like.id, in: account.id, db)
      try Self.recordEvent("mutualMatch", personID: like.id, accountID: account.id, in: db)
      return (like, [account.id])
    }
    // This process's polls of the accounts look again now.
    for accountID in signalled { eventSignal.signal(accountID) }
    return matched
  }

  /// Marks a pending like as skipped; false when there is no such pending like.
  func skipLike(id: String, accountID: String) throws -> Bool {
    try writer.write { db in
      guard let row = try Self.pendingRow(id: id, accountID: accountID, in: db) else {
        return false
      }
      // The stored id, not the one typed, as for a like back: `SKIP AB-2` once answered
      // 204 and left the like pending.
      try db.execute(
        sql: "UPDATE incomingLike SET status = 'skipped' WHERE accountID = ? AND id = ?",
        arguments: [accountID, Self.like(row).id])
      return true
    }
  }

  func mutuals(accountID: String) throws -> [IncomingLike] {
    try readWithoutTransaction { db in
      let statement = try db.cachedStatement(
        sql:
          "SELECT id, userName, avatarURL, name FROM incomingLike WHERE accountID = ? AND status = 'matched' ORDER BY matchedSeq DESC"
      )
      // Columns by position: by name, each of hundreds of rows folds the names' case.
      var mutuals: [IncomingLike] = []
      let rows = try Row.fetchCursor(statement, arguments: [accountID])
      while let row = try rows.next() {
        mutuals.append(IncomingLike(id: row[0], userName: row[1], avatarURL: row[2], name: row[3]))
      }
      return mutuals
    }
  }

  static func insert(
    _ like: IncomingLike, for accountID: String, status: String = LikeStatus.pending,
    in db: Database
  ) throws {
    let seq = try nextSeq(db)
    try db.cachedStatement(
      sql: """
        INSERT INTO incomingLike (id, accountID, userName, avatarURL, name, seq, status, matchedSeq)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(
      arguments: [
        like.id, accountID, like.userName, like.avatarURL, like.name, seq, status,
        status == LikeStatus.matched ? seq : nil,
      ])
  }

  static func markMatched(_ personID: String, in accountID: String, _ db: Database) throws {
    try db.cachedStatement(
      sql: "UPDATE incomingLike SET status = ?, matchedSeq = ? WHERE accountID = ? AND id = ?"
    ).execute(arguments: [LikeStatus.matched, try nextSeq(db), accountID, personID])
  }

  private static func pendingRow(id: String, accountID: String, in db: Database) throws -> Row? {
    try Row.fetchOne(
      db,
      sql:
        "SELECT id, userName, avatarURL, name FROM incomingLike WHERE id = ? AND accountID = ? AND status = 'pending'",
      arguments: [id.lowercased(), accountID])
  }

  private static func nextSeq(_ db: Database) throws -> Int {
    let statement = try db.cachedStatement(
      sql:
        "SELECT MAX(m) FROM (SELECT MAX(seq) AS m FROM incomingLike UNION ALL SELECT MAX(matchedSeq) FROM incomingLike)"
    )
    return try Int.fetchOne(statement).map { $0 + 1 } ?? 1
  }

  static func like(_ row: Row) -> IncomingLike {
    IncomingLike(
      id: row["id"], userName: row["userName"], avatarURL: row["avatarURL"], name: row["name"])
  }

  // MARK: - Realtime

  /// Adds the likes whose time has come (as a realtime source would) and returns when the
  /// next one is due. `interval` picks each gap.
  func generateDueLikes(
    accountID: String, now: Date, interval: () -> TimeInterval, makeLike: () -> IncomingLike
  ) throws -> Date {
    // Most polls find nothing due: a read, where a write transaction would queue every
    // waiting poll behind the one writer, and sync the file, once a wake.
    if let due = try writer.read({ try Self.nextDue(accountID: accountID, in: $0) }), due > now {
      return due
    }
    let (nextDue, made) = try writer.write { db -> (Date, Int) in
      var due =
        try Self.nextDue(accountID: accountID, in: db) ?? now.addingTimeInterval(interval())
      // At most a handful at once: a backend left alone for a week does not flood anybody.
      var made = 0
      while due <= now {
        if made < 5 {
          let like = makeLike()
          try Self.insert(like, for: accountID, in: db)
          try Self.recordEvent(
            "likedYouInserted", personID: like.id, accountID: accountID, in: db)
          made += 1
        }
        due = due.addingTimeInterval(interval())
      }
      try db.execute(
        sql: "INSERT OR REPLACE INTO likeGenerator (accountID, nextDueAt) VALUES (?, ?)",
        arguments: [accountID, due.timeIntervalSince1970])
      return (due, made)
    }
    if made > 0 { eventSignal.signal(accountID) }
    return nextDue
  }

  private static func nextDue(accountID: String, in db: Database) throws -> Date? {
    try Double.fetchOne(
      db, sql: "SELECT nextDueAt FROM likeGenerator WHERE accountID = ?", arguments: [accountID]
    ).map(Date.init(timeIntervalSince1970:))
  }

  /// The account's events after `after`, oldest first, and the highest sequence number so far.
  /// The events a `message` event's message was deleted under (an unmatch ended its
  /// conversation) are left out: the conversation is gone for both.
  func events(accountID: String, after: Int) throws -> (events: [StoredEvent], last: Int) {
    try writer.read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT e.seq, e.type, e.messageID, l.id, l.userName, l.avatarURL, l.name,
            m.id AS mID, m.authorID, m.subject, m.text, m.sentAt
          FROM likeEvent e JOIN incomingLike l ON l.accountID = e.accountID AND l.id = e.likeID
          LEFT JOIN talkMessage m ON m.id = e.messageID
          WHERE e.accountID = ? AND e.seq > ? ORDER BY e.seq
          """,
        arguments: [accountID, after])
      let last =
        try Int.fetchOne(
          db, sql: "SELECT MAX(seq) FROM likeEvent WHERE accountID = ?", arguments: [accountID])
        ?? 0
      let events = rows.compactMap { row -> StoredEvent? in
        let person = Self.like(row)
        guard (row["messageID"] as Int64?) != nil else {
          return StoredEvent(seq: row["seq"], type: row["type"], person: person)
        }
        guard (row["mID"] as Int64?) != nil else { return nil }
        let message = Self.sharedMessage(
          row, readBy: accountID, person: person.userName, idColumn: "mID")
        return StoredEvent(seq: row["seq"], type: row["type"], person: person, message: message)
      }
      return (events, last)
    }
  }

  /// An event for `accountID` about the person `personID` of its list.
  static func recordEvent(
    _ type: String, personID: String, accountID: String, messageID: Int64? = nil,
    in db: Database
  ) throws {
    try db.cachedStatement(
      sql: "INSERT INTO likeEvent (accountID, type, likeID, messageID) VALUES (?, ?, ?, ?)"
    ).execute(arguments: [accountID, type, personID, messageID])
  }
}
