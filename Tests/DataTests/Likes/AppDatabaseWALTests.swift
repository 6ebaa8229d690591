import Domain
import Foundation
import GRDB
import Testing

@testable import Data

/// Commands keep the cache open until they exit, so no connection closes and SQLite never
/// empties the WAL itself: opening empties a long one, and keeps what it held.
@Suite(.timeLimit(.minutes(1))) struct AppDatabaseWALTests {
  @Test func aNewFile_isInWALMode_syncingAtCheckpoints() async throws {
    try await withTemporaryCacheFile { file in
      let (database, _) = try await AppDatabase.open(at: file)

      #expect(
        try await database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
      // 1 is NORMAL: in WAL mode, a commit waits for no disk flush.
      #expect(try await database.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 1)
    }
  }

  @Test func aLongWAL_isEmptiedIntoTheFileAtOpen_andKeepsItsPages() async throws {
    try await withLongWAL { file, _ in
      let (database, _) = try await AppDatabase.open(at: file)

      #expect(Self.walSize(of: file) == 0)
      let cache = GRDBLikesCache(database: database, account: "alice")
      #expect(try await cache.page(1, batchSize: 10)?.users.map(\.userName) == ["Ana"])
      #expect(try await Self.lastFetch(database) == 400)
    }
  }

  @Test func aLongWALAnotherProcessReads_staysUntilTheNextOpening_withoutAWait() async throws {
    try await withLongWAL { file, earlier in
      // An open read transaction pins the WAL: it cannot be emptied under it.
      try earlier.inDatabase { db in
        try db.execute(sql: "BEGIN")
        _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM likedYouPage")
      }
      let started = ContinuousClock.now
      let (pinned, _) = try await AppDatabase.open(at: file)
      let waited = ContinuousClock.now - started

      #expect(waited < .seconds(5), "the opening waited \(waited), not the short busy wait")
      #expect(Self.walSize(of: file) > AppDatabase.longWALBytes)
      #expect(try await Self.lastFetch(pinned) == 400)

      try earlier.inDatabase { db in try db.execute(sql: "COMMIT") }
      _ = try await AppDatabase.open(at: file)
      #expect(Self.walSize(of: file) == 0)
    }
  }

  /// A cache file with one page, whose WAL holds 400 commits (about 1.6 MB) that were never
  /// copied into the file: what a few hundred commands leave. `earlier`, the connection
  /// that wrote them, stays open, as a process that exits without closing leaves them.
  private func withLongWAL(
    _ body: (URL, DatabaseQueue) async throws -> Void
  ) async throws {
    try await withTemporaryCacheFile { file in
      var configuration = Configuration()
      configuration.journalMode = .wal
      // The second test leaves a read transaction open across accesses, as another process's
      // reader would be.
      configuration.allowsUnsafeTransactions = true
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
      for fetch in 1...400 {
        try await earlier.write { db in
          try db.execute(sql: "UPDATE likedYouPage SET fetchedAt = ?", arguments: [fetch])
        }
      }
      try #require(Self.walSize(of: file) > AppDatabase.longWALBytes)
      try await body(file, earlier)
      try earlier.close()
    }
  }

  private static func walSize(of file: URL) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int) ?? 0
  }

  private static func lastFetch(_ database: AppDatabase) async throws -> Int? {
    try await database.read { db in
      try Int.fetchOne(db, sql: "SELECT fetchedAt FROM likedYouPage")
    }
  }
}
