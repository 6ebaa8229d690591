import Domain
import Foundation
import GRDB

/// `LikesCache` in the app's SQLite database, for one account: rows of other accounts are
/// never read, and `deleteAll` removes this account's rows only.
public struct GRDBLikesCache: LikesCache {
  private let database: AppDatabase
  private let account: String

  /// `account` identifies whose cache this is: the server and the username together.
  public init(database: AppDatabase, account: String) {
    self.database = database
    self.account = account
  }

  public func page(_ number: Int, batchSize: Int) async throws -> CachedLikesPage? {
    try await database.read { [account] db in
      guard
        let meta = try Row.fetchOne(
          db,
          sql: """
            SELECT nextCursor, fetchedAt, outOfDate FROM likedYouPage
            WHERE account = ? AND batchSize = ? AND page = ?
            """,
          arguments: [account, batchSize, number])
      else { return nil }
      let users = try Row.fetchAll(
        db,
        sql: """
          SELECT id, userName, avatarURL FROM likedYou
          WHERE account = ? AND batchSize = ? AND page = ? ORDER BY rank
          """,
        arguments: [account, batchSize, number]
      ).map(Self.user)
      return CachedLikesPage(
        users: users, nextCursor: meta["nextCursor"],
        fetchedAt: Date(timeIntervalSince1970: meta["fetchedAt"]), isOutOfDate: meta["outOfDate"])
    }
  }

  public func store(_ page: CachedLikesPage, number: Int, batchSize: Int) async throws {
    try await store([(number, page)], batchSize: batchSize)
  }

  /// Stores many pages in one transaction: a crash leaves all the old pages or all the new
  /// ones, never a mix.
  public func store(_ pages: [(number: Int, page: CachedLikesPage)], batchSize: Int) async throws {
    try await database.write { [account] db in
      let deleteRows = try db.cachedStatement(
        sql: "DELETE FROM likedYou WHERE account = ? AND batchSize = ? AND page = ?")
      let upsertPage = try db.cachedStatement(
        sql: """
          INSERT OR REPLACE INTO likedYouPage (account, batchSize, page, nextCursor, fetchedAt)
          VALUES (?, ?, ?, ?, ?)
          """)
      let insertRow = try db.cachedStatement(
        sql: """
          INSERT INTO likedYou (account, batchSize, page, rank, id, userName, avatarURL)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          """)
      for (number, page) in pages {
        try deleteRows.execute(arguments: [account, batchSize, number])
        try upsertPage.execute(
          arguments: [
            account, batchSize, number, page.nextCursor, page.fetchedAt.timeIntervalSince1970,
          ])
        for (rank, user) in page.users.enumerated() {
          try insertRow.execute(
            arguments: [account, batchSize, number, rank, user.id, user.userName, user.avatarURL])
        }
      }
    }
  }

  public func rememberShown(_ users: [LikedUser]) async throws {
    guard !users.isEmpty else { return }
    try await database.write { [account] db in
      let upsert = try db.cachedStatement(
        sql: """
          INSERT OR REPLACE INTO shownLike (account, id, userName, avatarURL)
          VALUES (?, ?, ?, ?)
          """)
      for user in users {
        try upsert.execute(arguments: [account, user.id, user.userName, user.avatarURL])
      }
    }
  }

  public func shownLikes(withIDPrefix prefix: String) async throws -> [LikedUser] {
    try await database.read { [account] db in
      // A range on the primary key (account, id) rather than LIKE, which SQLite would scan.
      try Row.fetchAll(
        db,
        sql:
          "SELECT id, userName, avatarURL FROM shownLike WHERE account = ? AND id >= ? AND id < ?",
        arguments: [account, prefix, prefix + "\u{10FFFF}"]
      ).map(Self.user)
    }
  }

  public func markPagesOutOfDate() async throws {
    try await database.write { [account] db in
      try db.execute(
        sql: "UPDATE likedYouPage SET outOfDate = 1 WHERE account = ? AND outOfDate = 0",
        arguments: [account])
    }
  }

  public func mutuals() async throws -> CachedLikesPage? {
    try await database.read { [account] db in
      guard
        let fetchedAt = try Double.fetchOne(
          db, sql: "SELECT fetchedAt FROM mutualList WHERE account = ?", arguments: [account])
      else { return nil }
      let users = try Row.fetchAll(
        db, sql: "SELECT id, userName, avatarURL FROM mutual WHERE account = ? ORDER BY rank",
        arguments: [account]
      ).map(Self.user)
      return CachedLikesPage(
        users: users, nextCursor: nil, fetchedAt: Date(timeIntervalSince1970: fetchedAt))
    }
  }

  public func storeMutuals(_ page: CachedLikesPage) async throws {
    try await database.write { [account] db in
      try db.execute(sql: "DELETE FROM mutual WHERE account = ?", arguments: [account])
      try db.execute(
        sql: "INSERT OR REPLACE INTO mutualList (account, fetchedAt) VALUES (?, ?)",
        arguments: [account, page.fetchedAt.timeIntervalSince1970])
      for (rank, user) in page.users.enumerated() {
        try db.execute(
          sql: "INSERT INTO mutual (account, rank, id, userName, avatarURL) VALUES (?, ?, ?, ?, ?)",
          arguments: [account, rank, user.id, user.userName, user.avatarURL])
      }
    }
  }

  public func deleteAll() async throws {
    try await database.write { [account] db in
      for table in [
        "likedYou", "likedYouPage", "mutual", "mutualList", "notificationCenterState", "shownLike",
      ] {
        try db.execute(sql: "DELETE FROM \(table) WHERE account = ?", arguments: [account])
      }
    }
  }

  private static func user(_ row: Row) -> LikedUser {
    LikedUser(id: row["id"], userName: row["userName"], avatarURL: row["avatarURL"])
  }
}

/// `NotificationCenterStateStore` in the app's database, per account: the unblur window's
/// end survives every run and is compared with the clock at each one.
public struct GRDBNotificationCenterStateStore: NotificationCenterStateStore {
  private let database: AppDatabase
  private let account: String

  public init(database: AppDatabase, account: String) {
    self.database = database
    self.account = account
  }

  public func unblurEndDate() async throws -> Date? {
    try await database.read { [account] db in
      try Double.fetchOne(
        db, sql: "SELECT unblurEndDate FROM notificationCenterState WHERE account = ?",
        arguments: [account]
      ).map(Date.init(timeIntervalSince1970:))
    }
  }

  public func setUnblurEndDate(_ date: Date?) async throws {
    try await database.write { [account] db in
      // An upsert, not a replace: the badge in the same row must survive.
      try db.execute(
        sql: """
          INSERT INTO notificationCenterState (account, unblurEndDate) VALUES (?, ?)
          ON CONFLICT(account) DO UPDATE SET unblurEndDate = excluded.unblurEndDate
          """,
        arguments: [account, date?.timeIntervalSince1970])
    }
  }

  public func unreadCount() async throws -> Int {
    try await database.read { [account] db in
      try Int.fetchOne(
        db, sql: "SELECT unread FROM notificationCenterState WHERE account = ?",
        arguments: [account]) ?? 0
    }
  }

  public func countLike(seq: Int, unkept: Int) async throws -> Int {
    try await database.write { [account] db in
      // One transaction: two clients counting the same event see each other's number.
      try db.execute(
        sql: """
          INSERT INTO notificationCenterState (account, unread, countedSeq) VALUES (?, ? + 1, ?)
          ON CONFLICT(account) DO UPDATE SET
            unread = unread + excluded.unread - 1
              + (countedSeq IS NULL OR excluded.countedSeq > countedSeq),
            countedSeq = max(coalesce(countedSeq, excluded.countedSeq), excluded.countedSeq)
          """,
        arguments: [account, unkept, seq])
      return try Self.unread(db, account)
    }
  }

  public func eventsStand(at last: Int) async throws -> Int {
    try await database.write { [account] db in
      try db.execute(
        sql: """
          UPDATE notificationCenterState SET unread = 0, countedSeq = ?
          WHERE account = ? AND countedSeq > ?
          """,
        arguments: [last, account, last])
      return try Self.unread(db, account)
    }
  }

  public func countsLikes(ofAccount id: String) async throws -> Bool {
    try await database.write { [account] db in
      let counted = try String.fetchOne(
        db, sql: "SELECT serverAccountID FROM notificationCenterState WHERE account = ?",
        arguments: [account])
      try db.execute(
        sql: """
          INSERT INTO notificationCenterState (account, serverAccountID) VALUES (?, ?)
          ON CONFLICT(account) DO UPDATE SET
            unread = CASE WHEN serverAccountID <> excluded.serverAccountID THEN 0 ELSE unread END,
            countedSeq =
              CASE WHEN serverAccountID <> excluded.serverAccountID THEN NULL ELSE countedSeq END,
            serverAccountID = excluded.serverAccountID
          """,
        arguments: [account, id])
      return counted != nil && counted != id
    }
  }

  private static func unread(_ db: Database, _ account: String) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT unread FROM notificationCenterState WHERE account = ?",
      arguments: [account]) ?? 0
  }

  public func look(clearingUnread: Bool) async throws -> NotificationCenterState {
    let read = { @Sendable [account] (db: Database) throws -> NotificationCenterState in
      let row = try Row.fetchOne(
        db, sql: "SELECT unblurEndDate, unread FROM notificationCenterState WHERE account = ?",
        arguments: [account])
      let end: Double? = row?["unblurEndDate"]
      return NotificationCenterState(
        unblurEndDate: end.map(Date.init(timeIntervalSince1970:)), unread: row?["unread"] ?? 0)
    }
    guard clearingUnread else { return try await database.read(read) }
    // One transaction: a like counted by another process between the read and the clear
    // would be cleared unseen.
    return try await database.write { [account] db in
      let state = try read(db)
      if state.unread > 0 {
        try db.execute(
          sql: "UPDATE notificationCenterState SET unread = 0 WHERE account = ?",
          arguments: [account])
      }
      return state
    }
  }
}
