import Foundation
import TestSupport
import Testing

/// The shell through its server's life, on a real pseudo-terminal against real `app serve`
/// processes: a crash (kill -9) or a deploy (SIGTERM) and a restart on the same port, and a
/// `/events` that fails for a while. The prompt says offline, `Back online` is said once,
/// and the banners come back; nothing is said as an error.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellServerLifeTerminalEndToEndTests {
  private static let oneLikeASecond: [String: String?] = ["APP_DEMO_LIKE_SECONDS": "1"]

  @Test(arguments: [SIGKILL, SIGTERM])
  func aServerStoppedAndRestarted_isOfflineThenBackOnline_andTheBannersResume(
    _ stop: Int32
  ) async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let serverData = ["--data-dir", app.scratch.path + "/server"]
    var server = try await ServeProcess.start(
      in: app, serverData, environment: Self.oneLikeASecond)
    defer { server.cancel() }
    let device = ["--api-url", server.url, "--data-dir", app.scratch.path + "/device"]
    let login = try await app.run(
      ["login", "--username", "demo", "--password-stdin"] + device, stdin: "demo-password")
    try #require(login.status == 0, "\(login.stderr)")

    let terminal = try app.onTerminal(device)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    try await terminal.waitUntil("a banner") { $0.contains("New like:") }

    let port = server.port
    _ = try await server.stop(with: stop)
    try await terminal.waitUntil("offline, said and in the prompt", within: .seconds(10)) {
      $0.contains("Offline: ") && TerminalScreen.lines(of: $0).last?.contains(" offline") == true
    }
    // Every like that arrived dropped the cached pages: there is nothing to show, and the
    // shell's words say what to do.
    terminal.type("likes\r")
    try await terminal.waitForPrompt(after: "the shell keeps what it has cached")
    server = try await ServeProcess.start(
      in: app, serverData, port: port, environment: Self.oneLikeASecond)
    try await terminal.waitUntil("back online", within: .seconds(20)) {
      $0.contains("Back online: ")
    }
    try await terminal.waitUntil("a banner after the return", within: .seconds(20)) { screen in
      guard let back = screen.range(of: "Back online: ") else { return false }
      return screen[back.upperBound...].contains("New like:")
    }
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    #expect(screen.components(separatedBy: "Offline: ").count == 2, "said once: \(screen)")
    #expect(screen.components(separatedBy: "Back online: ").count == 2, "said once: \(screen)")
    #expect(
      screen.components(separatedBy: "error:").count == 2, "only the likes typed offline failed")
    #expect(!screen.contains("--api-url"), "the shell's words: \(screen.debugDescription)")
    #expect(!screen.contains("Realtime updates"), "\(screen.debugDescription)")
  }

  @Test func eventsFailingForAWhile_isSaidOnce_andItsEndOnce() async throws {
    let now = TestNow()
    let served = try await ServedBackend.start(likeInterval: 1...1, now: now)
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("GET /events", status: 500, body: #"{"error":"internal"}"#)

    let terminal = try app.onTerminal(["--api-url", served.apiURL])
    try await terminal.waitForPrompt(after: "Signed in as demo")
    try await terminal.waitUntil("the failures, said", within: .seconds(20)) {
      $0.contains("Realtime updates are failing")
    }
    served.answerNormally("GET /events")
    try await terminal.waitUntil("their end, said", within: .seconds(20)) {
      $0.contains("Realtime updates are back.")
    }
    now.advance(by: 1)  // a like is due
    try await terminal.waitUntil("a banner after the return", within: .seconds(20)) { screen in
      guard let back = screen.range(of: "Realtime updates are back.") else { return false }
      return screen[back.upperBound...].contains("New like:")
    }
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    #expect(screen.components(separatedBy: "Realtime updates are failing").count == 2, "\(screen)")
    #expect(!screen.contains(" offline"), "a server that answers 500 is not offline: \(screen)")
    #expect(!screen.contains("Realtime updates stopped"), "\(screen)")
  }
}
