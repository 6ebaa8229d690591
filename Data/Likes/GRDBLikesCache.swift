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
