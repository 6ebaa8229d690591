import Domain
import Foundation
import GRDB
import Testing

@testable import Data

/// The cache keeps a rollback journal and maps nothing of its files into memory, so that a
/// file turned read-only or immutable under a running shell fails a write with an error,
/// never a SIGBUS. A file an earlier version left in WAL mode is turned back, keeping its
/// pages.
@Suite(.timeLimit(.minutes(1))) struct AppDatabaseJournalTests {
  @Test func aNewFile_keepsARollbackJournal_mapsNothing_andWaitsForNoDisk() async throws {
    try await withTemporaryCacheFile { file in
      let (database, _) = try await AppDatabase.open(at: file)

      #expect(try await Self.pragma("journal_mode", of: database) == "delete")
      #expect(try await Self.pragma("mmap_size", of: database) == "0")
      // 0 is OFF: a commit waits for no disk flush.
      #expect(try await Self.pragma("synchronous", of: database) == "0")
      let cache = GRDBLikesCache(database: database, account: "alice")
      try await cache.store(LikesCacheSpecs.page(["a"], next: nil), number: 1, batchSize: 10)
      #expect(!FileManager.default.fileExists(atPath: file.path + "-shm"), "no index to map")
    }
  }

  @Test func aFileInWALMode_isTurnedBackAtOpen_keepingItsPages() async throws {
    try await withFileInWALMode { file, earlier in
      try earlier.close()
      let (database, _) = try await AppDatabase.open(at: file)

      #expect(try await Self.pragma("journal_mode", of: database) == "delete")
      #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
      #expect(!FileManager.default.fileExists(atPath: file.path + "-shm"))
      let cache = GRDBLikesCache(database: database, account: "alice")
      #expect(try await cache.page(1, batchSize: 10)?.users.map(\.userName) == ["Ana"])
      #expect(try await Self.lastFetch(database) == 40)
    }
  }

  @Test func aFileAnEarlierVersionStillHasOpenInWALMode_opensWithoutAWait() async throws {
    try await withFileInWALMode { file, earlier in
      let started = ContinuousClock.now
      let (shared, _) = try await AppDatabase.open(at: file)
      let waited = ContinuousClock.now - started

      #expect(waited < .seconds(5), "the opening waited \(waited), not the short busy wait")
      #expect(try await Self.pragma("journal_mode", of: shared) == "wal")
      #expect(try await Self.lastFetch(shared) == 40)

      try earlier.close()
      await shared.close()
      let (alone, _) = try await AppDatabase.open(at: file)
      #expect(try await Self.pragma("journal_mode", of: alone) == "delete")
    }
  }

  /// A cache file with one page in WAL mode, as an earlier version left it, with 40 commits
  /// its WAL still holds; `earlier`, the connection that wrote them, is still open.
  private func withFileInWALMode(_ body: (URL, DatabaseQueue) async throws -> Void)
    async throws
  {
    try await withTemporaryCacheFile { file in
      var configuration = Configuration()
      configuration.journalMode = .wal
      configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
      let earlier = try DatabaseQueue(path: file.path, configuration: configuration)
      try AppDatabase.migrator.migrate(earlier)
      try await earlier.write { db in
        try db.execute(
          sql: """
            INSERT INTO likedYouPage (account, batchSize, page, nextCursor, fetchedAt)
            VALUES ('alice', 10, 1, NULL, 0);
            INSERT INTO likedYou (account, batchSize, page, rank, id, userName, avatarURL)
            VALUES ('alice', 10, 1, 0, 'aaaaaaaa-1', 'Ana', NULL);
            """)
      }
      for fetch in 1...40 {
        try await earlier.write { db in
          try db.execute(sql: "UPDATE likedYouPage SET fetchedAt = ?", arguments: [fetch])
        }
      }
      try #require(FileManager.default.fileExists(atPath: file.path + "-wal"))
      try await body(file, earlier)
      try? earlier.close()
    }
  }

  private static func pragma(_ name: String, of database: AppDatabase) async throws -> String? {
    try await database.read { try String.fetchOne($0, sql: "PRAGMA \(name)") }
  }

  private static func lastFetch(_ database: AppDatabase) async throws -> Int? {
    try await database.read { db in
      try Int.fetchOne(db, sql: "SELECT fetchedAt FROM likedYouPage")
    }
  }
}
