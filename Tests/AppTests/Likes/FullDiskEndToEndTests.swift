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
    let disk = try await Self.mountSmallDisk(for: app)
    defer { _ = umount2(disk.path, 2) }
    let onDisk = ["--api-url", served.apiURL, "--data-dir", disk.path + "/app"]
    let first = try await app.run(["likes"] + onDisk)
    try #require(first.status == 0, "the first page, before the disk is full: \(first.stderr)")

    try await Self.fill(disk, for: app)
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

  /// The embedded backend keeps its file in the same data folder, so its disk fills too:
  /// what the backend cannot write is said in the same sentence, naming its file, and not
  /// as a server's "HTTP 500: … SQLite error 13".
  @Test func theEmbeddedBackendsFile_onAFullDisk_isNamedInTheSameSentence() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    // The embedded backend's file, with the demo account's likes, takes over a megabyte.
    let disk = try await Self.mountSmallDisk(for: app, size: "4m")
    defer { _ = umount2(disk.path, 2) }
    let onDisk = ["--data-dir", disk.path + "/app"]
    let id = try await Self.signInDemo_andFindALike(app, onDisk)

    try await Self.fill(disk, for: app)
    let liked = try await app.run(["likes", "like", id] + onDisk)
    let likedJSON = try await app.run(["likes", "like", id, "--json"] + onDisk)

    let backendFile = "\(disk.path)/app/embedded-backend.sqlite"
    #expect(liked.status == 1)
    #expect(
      liked.stderr.contains("error: The disk holding \(backendFile) is full.")
        && liked.stderr.contains("hint: Free some space on it"), "\(liked.stderr)")
    #expect(!liked.stderr.contains("SQLite") && !liked.stderr.contains("500"), "\(liked.stderr)")
    #expect(likedJSON.status == 1)
    #expect(
      JSONShapes.document(likedJSON.stdout)?["error"]?["code"]?.string == "disk_full",
      "\(likedJSON.stdout)")
  }

  /// `app serve`'s own disk fills up: its client is told the server failed, with the request
  /// to quote to its operator, and nothing of the server's files or SQL; the server's log
  /// names the request and what failed.
  @Test func aServerOnAFullDisk_tellsItsClientTheRequest_andItsLogWhy() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let disk = try await Self.mountSmallDisk(for: app, size: "4m")
    defer { _ = umount2(disk.path, 2) }
    let server = try await ServeProcess.start(in: app, ["--data-dir", disk.path + "/app"])
    defer { server.cancel() }
    let remote = ["--api-url", server.url]
    let id = try await Self.signInDemo_andFindALike(app, remote)

    try await Self.fill(disk, for: app)
    let liked = try await app.run(["likes", "like", id] + remote)
    let stopped = try await server.stop()

    let told =
      "error: The server answered HTTP 500: The server failed to answer this request; "
      + "its log names why under request "
    #expect(liked.status == 1)
    #expect(liked.stderr.contains(told), "\(liked.stderr)")
    #expect(!liked.stderr.contains("SQLite") && !liked.stderr.contains(disk.path))
    let requestID = liked.stderr.components(separatedBy: told).dropFirst().first?
      .prefix { $0.isHexDigit }
    let logLine = stopped.stderr.split(separator: "\n").first { $0.contains("POST /likes/") }
    #expect(
      logLine?.contains("error serve: POST /likes/\(id)/like 500 ") == true, "\(stopped.stderr)")
    #expect(
      logLine?.contains("request=\(requestID ?? "?"): The backend failed: SQLite error 13") == true,
      "\(stopped.stderr)")
  }

  /// The disk fills while the shell is open: the like that arrives next cannot be kept, and
  /// the line that says realtime stopped names the file and what to do, as the command
  /// line's `hint:` would.
  @Test func aLikeArrivingOnAFullDisk_inTheShell_saysTheFileAndWhatToDo() async throws {
    let now = TestNow()
    let served = try await ServedBackend.start(likeInterval: 1...1, now: now)
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    let disk = try await Self.mountSmallDisk(for: app)
    defer { _ = umount2(disk.path, 2) }
    let onDisk = ["--api-url", served.apiURL, "--data-dir", disk.path + "/app"]
    let signedIn = try await app.run(
      ["login", "--username", "demo", "--password-stdin"] + onDisk, stdin: "demo-password")
    try #require(signedIn.status == 0, "signing in: \(signedIn.stderr)")

    let terminal = try app.onTerminal(onDisk)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    // The watch waits on the server (its first poll took the time the next like is due)...
    try await waitUntil("the watch's waiting poll", within: .seconds(20)) {
      served.requests.filter { $0.hasPrefix("GET /events") }.count >= 2
    }
    try await Self.fill(disk, for: app)
    now.advance(by: 1)  // ...and a like is due, to be kept on the full disk
    try await terminal.waitUntil("realtime stopped, said") {
      $0.contains("New likes show when you type `likes`.")
    }
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    #expect(
      screen.contains(
        "Realtime updates stopped: The disk holding \(disk.path)/app/app.sqlite is full. "
          + "Free some space on it, or use another data folder (--data-dir or APP_DATA_DIR). "
          + "New likes show when you type `likes`."), "\(screen.debugDescription)")
    #expect(!screen.contains("SQLite"), "\(screen.debugDescription)")
  }

  // MARK: - Helpers

  /// Signs in as the demo account with `arguments`, and returns the id of a like on its
  /// first page: one to answer once the disk is full.
  private static func signInDemo_andFindALike(_ app: AppRunner, _ arguments: [String])
    async throws -> String
  {
    let signedIn = try await app.run(
      ["login", "--username", "demo", "--password-stdin"] + arguments, stdin: "demo-password")
    try #require(signedIn.status == 0, "signing in: \(signedIn.stderr)")
    let page = try await app.run(["likes", "--json"] + arguments)
    var first: String?
    if case .array(let items)? = JSONShapes.document(page.stdout)?["items"] {
      first = items.first?["id"]?.string
    }
    return try #require(first, "no like to answer: \(page.stdout) \(page.stderr)")
  }

  /// A tmpfs of `size` in the runner's scratch folder, holding an empty `app` data folder.
  private static func mountSmallDisk(for app: AppRunner, size: String = "1m") async throws
    -> URL
  {
    let disk = app.scratch.appendingPathComponent("small-disk")
    let mounted = try await app.runShell(
      "mkdir -p '\(disk.path)' && mount -t tmpfs -o size=\(size),mode=0700 tmpfs '\(disk.path)'"
        + " && mkdir -m 0700 '\(disk.path)/app'")
    try #require(mounted.status == 0, "mount: \(mounted.stderr)")
    return disk
  }

  /// Fills `disk` to its last byte.
  private static func fill(_ disk: URL, for app: AppRunner) async throws {
    let filled = try await app.runShell(
      "dd if=/dev/zero of='\(disk.path)/filler' bs=4k 2>/dev/null; df -k '\(disk.path)'")
    #expect(filled.stdout.contains(" 100% "), "the disk is full: \(filled.stdout)")
  }
}
