import Foundation
import TestSupport
import Testing

/// The shell opens the likes cache once and keeps it. When the file changes under it, as a
/// person clearing space or a disk might change it, the next command opens it again.
@Suite(
  .timeLimit(.minutes(2)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellCacheFileEndToEndTests {
  private static let notice = "The likes cache was unreadable; it was moved to"

  @Test func aCacheFileReplacedOrDeletedMidSession_isOpenedAgain_andTheSessionGoesOn()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let cacheFile = app.dataFolder.appendingPathComponent("app.sqlite")

    let terminal = try app.onTerminal([])
    try await terminal.waitForPrompt(after: "Signed in as demo")
    terminal.type("likes\r")
    try await terminal.waitForPrompt(after: "Liked you: page 1")

    // Replaced by something that is not a database, in one step.
    let garbage = app.dataFolder.appendingPathComponent("garbage")
    try Data(repeating: 0x42, count: 8192).write(to: garbage)
    #expect(rename(garbage.path, cacheFile.path) == 0)
    terminal.type("likes 2\r")
    try await terminal.waitForPrompt(after: "Liked you: page 2")
    #expect(terminal.screen.contains(Self.notice), "\(terminal.screen.debugDescription)")

    // Deleted with its WAL and index, as `rm app.sqlite*` does.
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: cacheFile.path + suffix)
    }
    terminal.type("likes 3\r")
    try await terminal.waitForPrompt(after: "Liked you: page 3")
    terminal.type("\u{4}")  // Ctrl-D
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(!terminal.screen.contains("error:"), "\(terminal.screen.debugDescription)")
    let said = terminal.screen.components(separatedBy: Self.notice).count - 1
    #expect(said == 1, "said once, for the replaced file: \(terminal.screen.debugDescription)")
    let names = try FileManager.default.contentsOfDirectory(atPath: app.dataFolder.path)
    #expect(names.contains { $0.hasPrefix("app.corrupt-") }, "\(names)")
    #expect(names.contains("app.sqlite"), "made again after the deletion: \(names)")
  }
}
