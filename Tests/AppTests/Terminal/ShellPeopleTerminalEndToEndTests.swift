import Foundation
import TestSupport
import Testing

/// Two people meeting, one of them at the shell on a real pseudo-terminal, the other from
/// the command line of a device of its own, on a real `app serve`: `people`, `like 1`, the
/// match's banner, a message's banner and the badge that counts it, `messages` clearing
/// it, `send NAME` asking for the subject and the text, and `unmatch NAME`.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellPeopleTerminalEndToEndTests {
  @Test func aLikeAMatchAndAMessage_reachTheShellAsBanners() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let other = try AppRunner()
    defer { other.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"], demo: false)
    defer { server.cancel() }
    let api = ["--api-url", server.url]
    let ana = try await app.run(
      ["signup", "--username", "ana", "--name", "Ana", "--password-stdin"] + api,
      stdin: "ana-password-1")
    let ben = try await other.run(
      ["signup", "--username", "ben", "--name", "Ben", "--password-stdin"] + api,
      stdin: "ben-password-1")
    try #require(ana.status == 0 && ben.status == 0, "\(ana.stderr) \(ben.stderr)")

    let terminal = try app.onTerminal(api)
    try await terminal.waitForPrompt(after: "Signed in as ana")
    terminal.type("people\r")
    try await terminal.waitForPrompt(after: "ben (Ben)")
    terminal.type("like 1\r")
    try await terminal.waitForPrompt(after: "Liked ben")

    let page =
      try JSONSerialization.jsonObject(
        with: Data(try await other.run(["people", "--json"] + api).stdout.utf8)) as? [String: Any]
    let anasID = try #require((page?["people"] as? [[String: Any]])?.first?["id"] as? String)
    #expect(try await other.run(["people", "like", anasID] + api).status == 0)
    try await terminal.waitUntil("the match's banner", within: .seconds(20)) {
      $0.contains("It's a match with ben!")
    }
    let sent = try await other.run(
      ["messages", "send", "--to", "ana", "--subject", "hello there", "--message", "hi"] + api)
    #expect(sent.status == 0, "\(sent.stderr)")
    try await terminal.waitUntil("the message's banner and badge", within: .seconds(20)) {
      $0.contains("New message from ben: hello there") && $0.contains("(1 new)> ")
    }
    terminal.type("messages\r")
    try await terminal.waitForPrompt(after: "ben — 1 message")
    // `send NAME` alone asks for the subject and the message at the line editor.
    terminal.type("send ben\r")
    try await terminal.waitUntil("the subject's question") { $0.hasSuffix("Subject: ") }
    terminal.type("dinner\r")
    try await terminal.waitUntil("the message's question") { $0.hasSuffix("Message: ") }
    terminal.type("at eight, by the river\r")
    try await terminal.waitForPrompt(after: "Sent to ben.")
    let bens = try await other.run(["messages", "--user", "ana"] + api)
    #expect(bens.stdout.contains("dinner") && bens.stdout.contains("at eight, by the river"))
    terminal.type("unmatch ben\r")
    try await terminal.waitForPrompt(after: "Ended your match with ben")
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    let lastPrompt = terminal.screen.components(separatedBy: "ana@").last ?? ""
    #expect(!lastPrompt.contains("new)"), "the badge is cleared once read: \(lastPrompt)")
    _ = try await app.run(["logout", "--all"] + api)
  }
}
