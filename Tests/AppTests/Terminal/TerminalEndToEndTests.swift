import Foundation
import TestSupport
import Testing

/// `app` on a real pseudo-terminal: what a person sees when a question, a spinner, banners
/// and output lines share one screen, and what Ctrl-C typed at the keyboard does.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct TerminalEndToEndTests {
  private static let spinnerFrames = Set("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
  private static let question = "Allow notifications from app on this device? [y/N] "

  @Test func theSpinnerStops_whileThePermissionQuestionWaits_andComesBackAfter() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let terminal = try app.onTerminal(["push", "on"])
    try await terminal.waitUntil("the permission question") { $0.hasSuffix(Self.question) }
    // The spinner drew a frame every 80 ms before the fix: watching for one over several
    // frames' time shows it is put away, not just slow.
    await #expect(throws: PseudoTerminalWaitFailed.self) {
      try await terminal.waitUntil("a spinner frame over the question", within: .milliseconds(500))
      {
        Self.drawsAfterTheQuestion($0)
      }
    }
    terminal.type("y\r")
    let ended = await terminal.exit()

    let lines = TerminalScreen.lines(of: terminal.screen)
    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    #expect(lines.contains(Self.question + "y"), "the question and its answer stay: \(lines)")
    #expect(lines.last == "Push notifications are on.", "\(lines)")
    #expect(lines.allSatisfy { !$0.contains(where: Self.spinnerFrames.contains) }, "\(lines)")
    let afterAnswer = terminal.screen.components(separatedBy: Self.question + "y").last ?? ""
    #expect(
      afterAnswer.contains(where: Self.spinnerFrames.contains),
      "the spinner came back after the answer: \(afterAnswer.debugDescription)")
  }

  @Test func aMatchBanner_standsOnce_andOutputLinesNeverJoinIt() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    let id = try await app.firstLikeID(on: served)

    let terminal = try app.onTerminal(["likes", "watch", "--api-url", served.apiURL])
    let liked = try await app.likeBackOnceWatched(id, on: served)
    try #require(liked.status == 0, "\(liked.stderr)")
    try await terminal.waitUntil("the match banner") { $0.contains("It's a match with") }
    terminal.type("\u{3}")
    let ended = await terminal.exit()

    let lines = TerminalScreen.lines(of: terminal.screen)
    #expect(ended.signal == nil && ended.status == 130, "\(lines)")
    #expect(lines.filter { $0.contains("It's a match with") }.count == 1, "\(lines)")
    #expect(
      lines.contains { $0.hasPrefix("🎉 It's a match with ") }, "on a line of its own: \(lines)")
    #expect(lines.contains("Stopped watching: 0 new likes, 1 match."), "\(lines)")
    #expect(lines.last == "error: Interrupted (Ctrl-C).", "\(lines)")
  }

  @Test func ctrlC_atAPrompt_exits130_withOneJSONDocument() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let terminal = try app.onTerminal(["login", "--json"])
    try await terminal.waitUntil("the welcome menu") { $0.hasSuffix("Choose 1, 2 or q: ") }
    terminal.type("\u{3}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.signal == nil && ended.status == 130, "\(screen.debugDescription)")
    #expect(screen.contains("error: Interrupted (Ctrl-C)."), "\(screen.debugDescription)")
    let json = screen[(screen.firstIndex(of: "{") ?? screen.endIndex)...]
    let document = try #require(JSONShapes.document(String(json)), "\(screen.debugDescription)")
    #expect(document["error"]?["code"]?.string == "interrupted")
  }

  /// Whether anything was drawn after the question was asked.
  private static func drawsAfterTheQuestion(_ screen: String) -> Bool {
    guard let asked = screen.range(of: question, options: .backwards) else { return false }
    return !screen[asked.upperBound...].isEmpty
  }
}
