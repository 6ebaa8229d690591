import Foundation
import GRDB
import Testing

@testable import Backend

/// The backend's file as `open` sets it up: every commit synced before it is answered, and a
/// large write copied from the log into the file behind the write, not at the next close.
@Suite(.timeLimit(.minutes(1))) struct BackendDatabaseFileTests {
  @Test func everyCommitIsSynced_beforeItIsAnswered() async throws {
    try await withDatabaseFile { database, _ in
      let synchronous = try database.writer.writeWithoutTransaction { db in
        try Int.fetchOne(db, sql: "PRAGMA synchronous")
      }
      #expect(synchronous == 2, "FULL: GRDB's pool would leave NORMAL, synced at checkpoints only")
    }
  }

  @Test func theWriter_keeps64MiBOfPages_notSQLites2MiB() async throws {
    try await withDatabaseFile { database, _ in
      let cacheSize = try database.writer.writeWithoutTransaction { db in
        try Int.fetchOne(db, sql: "PRAGMA cache_size")
      }
      #expect(cacheSize == -65_536, "negative: KiB, as SQLite counts a cache given in bytes")
    }
  }

  @Test func aLargeMessage_reachesTheDatabaseFile_whileItStaysOpen() async throws {
    try await withDatabaseFile { database, file in
      let account = AccountRecord(id: "a", username: "a", name: "A", passwordHash: "x")
      try database.writer.write { db in try account.insert(db) }
      try database.seedConversationsIfNeeded(accountID: "a")
      let sizeBefore = try fileSize(file)
      let text = String(repeating: "a long message line\n", count: 300_000)  // 6 MB

      let delivery = try database.addMessage(
        from: account, to: "john", subject: "s", text: text, now: Date())
      guard case .stored(let stored) = delivery else {
        Issue.record("a message to a seeded person is stored: \(delivery)")
        return
      }
      // The writer's queue runs in order: this runs after the checkpoint the commit queued.
      database.writer.writeWithoutTransaction { _ in }

      #expect(stored.last?.text == text)
      #expect(try fileSize(file) - sizeBefore >= 6_000_000, "the log was copied into the file")
    }
  }

  /// Inside `app`, the embedded backend maps nothing of its file: a file made immutable under
  /// a running shell fails its writes with an error, never a SIGBUS. Its commits are synced
  /// as `app serve`'s are, and a file `app serve` left in WAL mode turns back.
  @Test func theEmbeddedBackendsFile_keepsARollbackJournal_syncedAtEveryCommit() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "backend-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("backend.sqlite")
    let served = try await BackendDatabase.open(at: file)
    try await served.writer.write { db in
      try AccountRecord(id: "a", username: "a", name: "A", passwordHash: "x").insert(db)
    }
    await served.close()

    let embedded = try await BackendDatabase.openWithRollbackJournal(at: file)
    let pragmas = try await embedded.writer.writeWithoutTransaction { db in
      try ["journal_mode", "mmap_size", "synchronous"].map {
        try String.fetchOne(db, sql: "PRAGMA \($0)")
      }
    }
    let kept = try embedded.account(username: "a")
    await embedded.close()

    #expect(pragmas == ["delete", "0", "2"])
    #expect(kept?.name == "A", "what `app serve` wrote is there")
    #expect(!FileManager.default.fileExists(atPath: file.path + "-shm"))
  }

  /// A 500 from the SQLite store says which call failed, not only "disk I/O error".
  @Test func aFailure_isDiagnosedBySQLitesExtendedCode() {
    #expect(DatabaseError(resultCode: .SQLITE_IOERR_READ).diagnosis == "SQLite extended code 266")
    #expect(
      DatabaseError(resultCode: .SQLITE_IOERR_SHMMAP).diagnosis == "SQLite extended code 5386")
    #expect(DatabaseError(resultCode: .SQLITE_IOERR).diagnosis == nil, "nothing more to say")
  }

  private func withDatabaseFile(_ body: (BackendDatabase, URL) async throws -> Void)
    async throws
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "backend-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("backend.sqlite")
    try await body(try await BackendDatabase.open(at: file), file)
  }

  private func fileSize(_ file: URL) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
  }
}
