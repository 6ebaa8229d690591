import Data
import Domain
import Foundation
import TestSupport
import Testing

/// `kill -9` in the middle of a cache write: the file must open, pass SQLite's integrity
/// check, and hold either whole pages or none, never part of one.
@Suite(.timeLimit(.minutes(3))) struct CacheCrashEndToEndTests {
  @Test func aWriterKilledMidTransaction_leavesASoundCache() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "crash-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let writer = AppRunner.binary.deletingLastPathComponent().appendingPathComponent(
      "likes-cache-benchmark")
    try #require(FileManager.default.isExecutableFile(atPath: writer.path), "build the tests first")
    let scratch = try AppRunner()
    defer { scratch.remove() }

    // The writer fills a million likes in one transaction. Its pages spill into the file as
    // the transaction goes, the originals in the rollback journal: once the file passes
    // 20 MB, the writer is killed mid-write, its journal still there to be rolled back.
    let file = folder.appendingPathComponent("app.sqlite").path
    let status = try await ProcessSlots.shared.withSlot {
      try await ChildProcess.run(
        writer, ["--folder", folder.path], environment: ProcessInfo.processInfo.environment,
        files: .init(
          stdin: URL(fileURLWithPath: "/dev/null"),
          stdout: scratch.scratch.appendingPathComponent("out"),
          stderr: scratch.scratch.appendingPathComponent("err")),
        limit: 120,
        killWhen: {
          let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
          return size > 20_000_000
        }
      ).status
    }

    #expect(status == 128 + SIGKILL, "the writer was killed, not finished")
    let (database, recovery) = try await AppDatabase.open(
      at: folder.appendingPathComponent("app.sqlite"))
    #expect(recovery == .none)
    #expect(try await database.isIntact())
    let cache = GRDBLikesCache(database: database, account: "benchmark|demo")
    for number in [1, 2, 25_000, 50_000] {
      let page = try await cache.page(number, batchSize: 20)
      #expect(page == nil || page?.users.count == 20, "page \(number) is whole or absent")
    }
  }
}
