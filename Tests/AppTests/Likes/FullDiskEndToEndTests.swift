import Foundation
import TestSupport
import Testing

/// The person's own disk fills up: a page the server sent still shows, with one sentence
/// that names the file and what to do, never SQLite's "error 13 … COMMIT TRANSACTION". The
/// data folder is a small tmpfs, filled to the last byte; CI runs as root, which may mount
/// one.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: Keyring.shouldTest, "needs a Secret Service (CI=true makes this a failure)"),
  .enabled(
    if: getuid() == 0 || ProcessInfo.processInfo.environment["CI"] == "true",
    "mounting a small disk needs root (CI runs as root)"))
struct FullDiskEndToEndTests {
  @Test func aPageFromTheServer_showsOnAFullDisk_withOneSentence() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    let disk = app.scratch.appendingPathComponent("small-disk")
    let mounted = try await app.runShell(
      "mkdir -p '\(disk.path)' && mount -t tmpfs -o size=1m,mode=0700 tmpfs '\(disk.path)'")
    try #require(mounted.status == 0, "mount: \(mounted.stderr)")
    defer { _ = umount2(disk.path, 2) }
    let onDisk = ["--api-url", served.apiURL, "--data-dir", disk.path + "/app"]
    _ = try await app.runShell("mkdir -m 0700 '\(disk.path)/app'")
    let first = try await app.run(["likes"] + onDisk)
    try #require(first.status == 0, "the first page, before the disk is full: \(first.stderr)")

    let filled = try await app.runShell(
      "dd if=/dev/zero of='\(disk.path)/filler' bs=4k 2>/dev/null; df -k '\(disk.path)'")
    #expect(filled.stdout.contains(" 100% "), "the disk is full: \(filled.stdout)")
    let second = try await app.run(["likes", "--page", "2"] + onDisk)
    let json = try await app.run(["likes", "--page", "3", "--json"] + onDisk)
    // What must be kept to be done at all fails, in words and with a stable code.
    let unblur = try await app.run(["likes", "unblur", "--json"] + onDisk)

    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("Liked you: page 2"), "\(second.stdout)")
    let warnings = second.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("warning:") }
    #expect(
      warnings == [
        "warning: The page could not be kept on this machine: The disk holding \(disk.path)/app/app.sqlite is full. Free some space on it, or use another data folder (--data-dir or APP_DATA_DIR)."
      ], "\(second.stderr)")
    #expect(!second.stderr.contains("SQLite"), "\(second.stderr)")
    #expect(json.status == 0, "\(json.stderr)")
    #expect(JSONShapes.document(json.stdout)?["page"] == .int(3), "\(json.stdout)")
    #expect(unblur.status == 1)
    #expect(
      JSONShapes.document(unblur.stdout)?["error"]?["code"]?.string == "disk_full",
      "\(unblur.stdout)")
    #expect(
      unblur.stderr.contains("error: The disk holding \(disk.path)/app/app.sqlite is full."),
      "\(unblur.stderr)")
  }
}
