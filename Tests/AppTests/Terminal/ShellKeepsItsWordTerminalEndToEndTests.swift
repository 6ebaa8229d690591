import Foundation
import TestSupport
import Testing

/// What the shell promises, kept while things go wrong around it, on a real pseudo-terminal
/// against real `app serve` processes: a server frozen with SIGSTOP (it accepts connections
/// and answers nothing), the data folder removed and made immutable mid-session, and a
/// server whose database was replaced.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellKeepsItsWordTerminalEndToEndTests {
  private static let oneLikeASecond: [String: String?] = ["APP_DEMO_LIKE_SECONDS": "1"]

  @Test func aFrozenServer_givesThePromptBackWithinTheLimit_andCtrlCAtOnce() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let serverData = app.scratch.path + "/server"
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", serverData], environment: Self.oneLikeASecond)
    defer {
      try? ServeProcess.send(SIGCONT, toTheServerWith: serverData)
      server.cancel()
    }
    let device = ["--api-url", server.url, "--data-dir", app.scratch.path + "/device"]
    try await app.signIn(device)
    let terminal = try app.onTerminal(device)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    terminal.type("likes 2\r")
    try await terminal.waitForPrompt(after: "Liked you: page 2")
    try await terminal.waitUntil("a like after page 2 was cached") {
      $0.after("Liked you: page 2").contains("New like:")
    }

    try ServeProcess.send(SIGSTOP, toTheServerWith: serverData)
    terminal.type("messages\r")
    try await terminal.waitUntil("the request under way") {
      $0.after("> messages").contains("Loading messages")
    }
    let interrupted = ContinuousClock.now
    terminal.type("\u{3}")
    try await terminal.waitForPrompt(after: "error: Cancelled.")
    let ctrlC = ContinuousClock.now - interrupted

    let asked = ContinuousClock.now
    terminal.type("likes 2\r")
    try await terminal.waitForPrompt(after: "out of date", within: .seconds(40))
    let cachedPage = ContinuousClock.now - asked
    try await terminal.waitUntil("offline, said", within: .seconds(40)) {
      $0.contains("Offline: The server did not answer within 15 s.")
    }
    let offlineAsked = ContinuousClock.now
    terminal.type("mutuals\r")
    try await terminal.waitForPrompt(after: "still not answering")
    let knownAnswer = ContinuousClock.now - offlineAsked

    try ServeProcess.send(SIGCONT, toTheServerWith: serverData)
    try await terminal.waitUntil("back online", within: .seconds(40)) {
      $0.contains("Back online: ")
    }
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    #expect(ctrlC < .seconds(2), "Ctrl-C gives the prompt back at once, not \(ctrlC)")
    let promptAfterCtrlC = screen.after("error: Cancelled.").split(separator: "\n")
      .first { $0.contains("> ") }
    #expect(
      promptAfterCtrlC?.contains(" likes") == true
        && promptAfterCtrlC?.contains("messages") == false,
      "the prompt names the screen still shown: \(String(describing: promptAfterCtrlC))")
    #expect(
      cachedPage < .seconds(25),
      "within the 15 s limit, not twice it: \(cachedPage), \(screen.debugDescription)")
    #expect(
      screen.contains(
        "Offline: the server cannot be reached; from the cache, fetched"),
      "the cached page shows: \(screen.debugDescription)")
    #expect(
      knownAnswer < .seconds(5),
      "a server known not to answer is not waited for again: \(knownAnswer)")
    #expect(screen.components(separatedBy: "Offline: The server").count == 2, "said once")
  }

  @Test func aDataFolderRemovedAndMadeImmutable_isSaid_andTheShellGoesOnWithoutIt()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"], environment: Self.oneLikeASecond)
    defer { server.cancel() }
    let folder = app.scratch.appendingPathComponent("device")
    let device = ["--api-url", server.url, "--data-dir", folder.path]
    try await app.signIn(device)
    let terminal = try app.onTerminal(device)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    try await terminal.waitUntil("a banner") { $0.contains("New like:") }

    try FileManager.default.removeItem(at: folder)
    try await terminal.waitUntil("the folder's removal, said", within: .seconds(20)) {
      $0.contains("The data folder \(folder.path) was removed; it was made again (owner-only)")
    }
    try await terminal.waitUntil("banners after it") {
      $0.after("was made again").contains("New like:")
    }
    terminal.type("likes\r")
    try await terminal.waitForPrompt(after: "From the server, just now.")
    var status = stat()
    #expect(stat(folder.path, &status) == 0 && status.st_mode & 0o777 == 0o700)

    // Immutable, as a disk remounted read-only would be: a write to what SQLite maps of the
    // files would be a SIGBUS. `sync` writes back what was written, so that the next write
    // to any mapping faults at once rather than in half a minute.
    if getuid() == 0 {
      try Self.chattr("+i", folder)
      defer { try? Self.chattr("-i", folder) }
      sync()
      try await terminal.waitUntil("the files' refusal, said", within: .seconds(20)) {
        $0.after("From the server, just now.").contains("New likes cannot be kept on this machine")
      }
      try await terminal.waitUntil("banners after it") {
        $0.after("New likes cannot be kept").components(separatedBy: "New like:").count > 3
      }
      terminal.type("likes 2\r")
      try await terminal.waitForPrompt(after: "Liked you: page 2")
      try Self.chattr("-i", folder)
    }
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.signal == nil && ended.status == 0, "no Bus error: \(screen.debugDescription)")
    #expect(!screen.contains("Realtime updates stopped"), "\(screen.debugDescription)")
    #expect(screen.components(separatedBy: "was made again").count == 2, "said once")
    #expect(!screen.contains("SQLite"), "\(screen.debugDescription)")
    if getuid() == 0 {
      #expect(
        screen.contains("\(folder.path)/app.sqlite cannot be written"),
        "the one sentence names what happened: \(screen.debugDescription)")
      #expect(
        screen.components(separatedBy: "New likes cannot be kept").count == 2, "said once")
      #expect(
        screen.after("Liked you: page 2").contains("From the server, just now."),
        "a page from the server shows without a cache")
    }
  }

  /// Two shells and a watch on one account and data folder each show every like, and the
  /// badge they share counts each once. The server is the suite's in-process backend on a
  /// clock the test moves: one like each time, and all three see it before the next.
  @Test func twoShellsAndAWatchOnOneFolder_countEachLikeOnce() async throws {
    let now = TestNow()
    let served = try await ServedBackend.start(likeInterval: 1...1, now: now)
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    let shells = try (0..<2).map { _ in try app.onTerminal(["--api-url", served.apiURL]) }
    for shell in shells { try await shell.waitForPrompt(after: "Signed in as demo") }
    let watch = Task {
      try await app.run(
        ["likes", "watch", "--json", "--for", "60s", "--api-url", served.apiURL],
        sharesASlot: false)
    }
    try await waitUntil("three watches wait for news", within: .seconds(30)) {
      served.requests.filter { $0.hasPrefix("GET /events") }.count >= 6
    }

    for count in 1...3 {
      now.advance(by: 1)
      for shell in shells {
        try await shell.waitUntil("like \(count)") { $0.contains("(\(count) unread)") }
      }
    }
    for shell in shells { shell.type("\u{4}") }
    for shell in shells { _ = await shell.exit() }
    watch.cancel()

    for shell in shells {
      let unread = shell.screen.matches(of: /\((\d+) unread\)/).map { Int($0.1)! }
      #expect(unread == [1, 2, 3], "one like, one count: \(shell.screen.debugDescription)")
    }
  }

  @Test func aServerWhoseDatabaseWasReplaced_endsTheSession_andABadgeStartsAgain() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    var server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/first"], environment: Self.oneLikeASecond)
    defer { server.cancel() }
    let port = server.port
    let device = ["--api-url", server.url, "--data-dir", app.scratch.path + "/device"]
    try await app.signIn(device)
    let terminal = try app.onTerminal(device)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    try await terminal.waitUntil("three likes counted") { $0.contains("(3 unread)") }

    _ = try await server.stop()
    server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/second"], port: port,
      environment: Self.oneLikeASecond)
    try await terminal.waitForPrompt(
      after: "The server ended the session of demo", within: .seconds(40))
    terminal.type("login demo\r")
    try await terminal.waitUntil("the password question") {
      $0.after("login demo").contains("assword")
    }
    terminal.type("demo-password\r")
    try await terminal.waitForPrompt(after: "Signed in as demo (Demo User)")
    try await terminal.waitUntil("a like on the new server") {
      $0.after("Signed in as demo (Demo User)").contains("New like:")
    }
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    let afterTheEnd = screen.after("The server ended the session of demo")
    let beforeTheWelcome = afterTheEnd.before("(signed out)> ")
    #expect(
      !beforeTheWelcome.contains("demo@127.0.0.1:\(port)"),
      "no prompt of the ended home is drawn again: \(afterTheEnd.debugDescription)")
    let signedIn = screen.after("Signed in as demo (Demo User)")
    #expect(
      signedIn.contains("(1 unread)") && !signedIn.contains("(4 unread)"),
      "the new account's badge starts again: \(signedIn.debugDescription)")
  }

  private static func chattr(_ change: String, _ folder: URL) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .map { folder.appendingPathComponent($0).path }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    // The files first and the folder last, so that `-i` can reach the files again.
    process.arguments =
      change == "+i" ? [change] + files + [folder.path] : [change, folder.path] + files
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "chattr \(change) \(folder.path)")
  }
}

extension AppRunner {
  /// Signs in as the demo account with these options (`--api-url`, `--data-dir`).
  fileprivate func signIn(_ options: [String]) async throws {
    let login = try await run(
      ["login", "--username", "demo", "--password-stdin"] + options, stdin: "demo-password")
    try #require(login.status == 0, "\(login.stderr)")
  }
}

extension String {
  /// What comes after the last `marker`, or nothing.
  fileprivate func after(_ marker: String) -> Substring {
    guard let found = range(of: marker, options: .backwards) else { return "" }
    return self[found.upperBound...]
  }
}

extension Substring {
  /// What comes before the first `marker`, or all of it.
  fileprivate func before(_ marker: String) -> Substring {
    guard let found = range(of: marker) else { return self }
    return self[..<found.lowerBound]
  }
}
