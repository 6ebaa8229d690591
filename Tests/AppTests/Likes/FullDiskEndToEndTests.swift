import Foundation
import TestSupport
import Testing

/// The person's own disk fills up: a page the server sent still shows, with one sentence
/// that names the file and what to do, never SQLite's "error 13 … COMMIT TRANSACTION". The
/// data folder is a small tmpfs, filled to the last byte; CI runs as root, which may mount
/// one.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"),
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
    // "HTTP 500", as a server error is said: the folder's random name may hold "500".
    #expect(
      !liked.stderr.contains("SQLite") && !liked.stderr.contains("HTTP 500"), "\(liked.stderr)")
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

  /// The disk fills while the shell is open: a like that arrives still shows, and one line
  /// names the file and what to do, as the command line's `hint:` would. `likes` shows the
  /// server's page, not the cached one the like made out of date. A like that arrives after
  /// it is counted in memory, and kept with the first like once space is freed: nothing is
  /// lost.
  @Test func aLikeArrivingOnAFullDisk_inTheShell_shows_andIsKeptOnceThereIsSpace() async throws {
    let now = TestNow()
    let served = try await ServedBackend.start(likeInterval: 1...1, now: now)
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    let disk = try await Self.mountSmallDisk(for: app)
    defer { _ = umount2(disk.path, 2) }
    let onDisk = try await Self.signInDemo(app, on: served, dataOn: disk)
    let cached = try await app.run(["likes"] + onDisk)  // page 1 is in the cache
    try #require(cached.status == 0, "the first page: \(cached.stderr)")

    let terminal = try app.onTerminal(onDisk)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    // The watch waits on the server (its first poll took the time the next like is due)...
    try await served.waitForTheWatchsWaitingPoll()
    try await Self.fill(disk, for: app)
    now.advance(by: 1)  // ...and a like is due, to be kept on the full disk
    try await terminal.waitUntil("the like, and that it cannot be kept") {
      $0.contains("They still show here")
    }
    let first = try #require(Self.newLikeIDs(on: terminal.screen).first, "\(terminal.screen)")
    let pagesBefore = terminal.screen.components(separatedBy: "Liked you: page 1").count
    terminal.type("likes\r")
    try await terminal.waitUntil("page 1") {
      $0.components(separatedBy: "Liked you: page 1").count > pagesBefore
    }
    try await terminal.waitForPrompt(after: "Liked you: page 1")
    let page = try #require(terminal.screen.components(separatedBy: "Liked you: page 1").last)
    #expect(page.contains("  \(first)  "), "the server's page, with the new like: \(page)")

    now.advance(by: 1)  // a second like, after page 1 was seen, still on the full disk
    try await terminal.waitUntil("the second like") { Self.newLikeIDs(on: $0).count == 2 }
    let freed = try await app.runShell("rm '\(disk.path)/filler'")
    try #require(freed.status == 0, "\(freed.stderr)")
    now.advance(by: 1)
    try await terminal.waitUntil("the third like") { Self.newLikeIDs(on: $0).count == 3 }
    terminal.type("\u{4}")
    let ended = await terminal.exit()
    let shown = Self.newLikeIDs(on: terminal.screen)
    let afterwards = try await app.run(["likes", "--json"] + onDisk)

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    #expect(
      screen.components(separatedBy: "New likes cannot be kept on this machine").count == 2,
      "said once: \(screen.debugDescription)")
    #expect(
      screen.contains(
        "New likes cannot be kept on this machine: The disk holding \(disk.path)/app/app.sqlite "
          + "is full. Free some space on it, or quit and start the shell on another data folder "
          + "(`app --data-dir DIR`). They still show here, and `likes` asks the server for its "
          + "pages meanwhile."),
      "the shell's words, which name no flag it refuses: \(screen.debugDescription)")
    #expect(
      screen.contains("New like: \(shown[2])  ░░░░░░░░ (blurred) (2 unread)"),
      "the second like, which the disk could not keep, still counts: \(screen.debugDescription)")
    #expect(!screen.contains("Realtime updates stopped"), "\(screen.debugDescription)")
    #expect(!screen.contains("SQLite"), "\(screen.debugDescription)")
    // Kept: a later run's page 1 holds the three likes, and the badge counts the two that
    // came after page 1 was seen.
    #expect(afterwards.status == 0, "\(afterwards.stderr)")
    let document = JSONShapes.document(afterwards.stdout)
    var ids: [String] = []
    if case .array(let items)? = document?["items"] {
      ids = items.compactMap { $0["id"]?.string.map { String($0.prefix(8)) } }
    }
    #expect(Array(ids.prefix(3)) == shown.reversed(), "\(afterwards.stdout)")
    #expect(document?["unread"] == .int(2), "\(afterwards.stdout)")
  }

  /// `app likes watch` with the disk full: the like shows on stdout, one warning on stderr
  /// names the file and what to do, and the watch goes on until Ctrl-C.
  @Test func aLikeArrivingOnAFullDisk_inTheWatch_showsWithOneWarning() async throws {
    let now = TestNow()
    let served = try await ServedBackend.start(likeInterval: 1...1, now: now)
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    let disk = try await Self.mountSmallDisk(for: app)
    defer { _ = umount2(disk.path, 2) }
    let onDisk = try await Self.signInDemo(app, on: served, dataOn: disk)
    let id = UUID().uuidString
    let errors = app.scratch.appendingPathComponent("\(id).err")

    let likeOnAFullDisk = Task {
      try await served.waitForTheWatchsWaitingPoll()
      try await Self.fill(disk, for: app)
      now.advance(by: 1)
    }
    let watched = try await app.run(
      AppRunner.binary, ["likes", "watch"] + onDisk, stdin: nil, environment: [:], id: id,
      stopWhen: {
        ((try? String(contentsOf: errors, encoding: .utf8)) ?? "").contains("They still show")
      },
      stopSignal: SIGINT)
    try await likeOnAFullDisk.value

    #expect(watched.status == 130, "stopped by Ctrl-C, not by the disk: \(watched.stderr)")
    let lines = watched.stdout.split(separator: "\n")
    #expect(lines.count == 1, "\(watched.stdout)")
    #expect(lines.first?.hasPrefix("New like: ") == true, "\(watched.stdout)")
    #expect(lines.first?.hasSuffix("(1 unread)") == true, "\(watched.stdout)")
    #expect(
      watched.stderr.contains(
        "warning: New likes cannot be kept on this machine: The disk holding "
          + "\(disk.path)/app/app.sqlite is full. Free some space on it, or use another data "
          + "folder (--data-dir or APP_DATA_DIR). They still show here.\n"), "\(watched.stderr)")
    #expect(watched.stderr.contains("Stopped watching: 1 new like, 0 matches."))
    #expect(!watched.stderr.contains("SQLite"), "\(watched.stderr)")
  }

  // MARK: - Helpers

  /// Signs in as the demo account of `served`, with the data folder on `disk`; returns the
  /// arguments that use both.
  private static func signInDemo(_ app: AppRunner, on served: ServedBackend, dataOn disk: URL)
    async throws -> [String]
  {
    let onDisk = ["--api-url", served.apiURL, "--data-dir", disk.path + "/app"]
    let signedIn = try await app.run(
      ["login", "--username", "demo", "--password-stdin"] + onDisk, stdin: "demo-password")
    try #require(signedIn.status == 0, "signing in: \(signedIn.stderr)")
    return onDisk
  }

  /// The short ids of the `New like:` lines on `screen`, in order.
  private static func newLikeIDs(on screen: String) -> [String] {
    screen.components(separatedBy: "New like: ").dropFirst().map { String($0.prefix(8)) }
  }

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
