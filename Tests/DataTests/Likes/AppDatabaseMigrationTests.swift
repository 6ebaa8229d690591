import Domain
import Foundation
import GRDB
import Testing

@testable import Data

/// A cache file made by an earlier version is brought up to date when it is opened, and
/// keeps what it held.
@Suite(.timeLimit(.minutes(1))) struct AppDatabaseMigrationTests {
  @Test func aVersion2File_losesTheUnusedIndex_andKeepsItsPages() async throws {
    try await withTemporaryCacheFile { file in
      do {
        let old = try DatabaseQueue(path: file.path)
        try AppDatabase.migrator.migrate(old, upTo: "v2: people shown")
        try await old.write { db in
          try db.execute(
            sql: """
              INSERT INTO likedYouPage (account, batchSize, page, nextCursor, fetchedAt)
              VALUES ('alice', 10, 1, NULL, 1);
              INSERT INTO likedYou (account, batchSize, page, rank, id, userName, avatarURL)
              VALUES ('alice', 10, 1, 0, 'aaaaaaaa-1', 'Ana', NULL);
              """)
        }
        #expect(try await Self.indexes(old).contains("likedYouByID"))
        try old.close()
      }

      let (database, _) = try await AppDatabase.open(at: file)

      let indexes = try await database.read { db in
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
      }
      #expect(!indexes.contains("likedYouByID"))
      let cache = GRDBLikesCache(database: database, account: "alice")
      #expect(try await cache.page(1, batchSize: 10)?.users.map(\.userName) == ["Ana"])
    }
  }

  @Test func aVersion3File_keepsItsPagesUpToDate_andItsBadge_countingFromThere() async throws {
    try await withTemporaryCacheFile { file in
      do {
        let old = try DatabaseQueue(path: file.path)
        try AppDatabase.migrator.migrate(old, upTo: "v3: no index by id on likedYou")
        try await old.write { db in
          try db.execute(
            sql: """
              INSERT INTO likedYouPage (account, batchSize, page, nextCursor, fetchedAt)
              VALUES ('alice', 10, 1, NULL, 1);
              INSERT INTO likedYou (account, batchSize, page, rank, id, userName, avatarURL)
              VALUES ('alice', 10, 1, 0, 'aaaaaaaa-1', 'Ana', NULL);
              INSERT INTO notificationCenterState (account, unblurEndDate, unread)
              VALUES ('alice', NULL, 3);
              """)
        }
        try old.close()
      }

      let (database, _) = try await AppDatabase.open(at: file)

      let cache = GRDBLikesCache(database: database, account: "alice")
      let page = try await cache.page(1, batchSize: 10)
      #expect(page?.users.map(\.userName) == ["Ana"])
      #expect(page?.isOutOfDate == false)
      let badge = GRDBNotificationCenterStateStore(database: database, account: "alice")
      #expect(try await badge.unreadCount() == 3)
      #expect(try await badge.countLike(seq: 12, unkept: 0) == 4, "the first event it counts")
      #expect(try await badge.countLike(seq: 12, unkept: 0) == 4)
    }
  }

  @Test func aNewFile_hasNoIndexByID() async throws {
    let database = try AppDatabase.inMemory()
    let indexes = try await database.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    #expect(!indexes.contains("likedYouByID"))
  }

  private static func indexes(_ queue: DatabaseQueue) async throws -> [String] {
    try await queue.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
    }
  }
}
