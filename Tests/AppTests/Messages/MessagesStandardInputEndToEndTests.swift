import Foundation
import TestSupport
import Testing

/// `messages send --message -` as the binary reads its own standard input, which the
/// in-process runs replace: a long message arrives whole from a file and from a pipe.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct MessagesStandardInputEndToEndTests {
  private struct Person: Decodable {
    struct Message: Decodable {
      let subject: String
      let message: String
    }
    let name: String
    let messages: [Message]
  }

  @Test func send_readsALongMessageWhole_fromAFileAndFromAPipe() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    // About 190 KB: more than the first piece a pipe is read in, so the reading must grow.
    let text = (0..<3_000).map { "line \($0) of a long message,\twith an accent: café ✓\n" }
      .joined()
    let file = app.scratch.appendingPathComponent("long-message.txt")
    try Data(text.utf8).write(to: file)

    let fromFile = try await app.run(
      ["messages", "send", "--to", "john", "--subject", "long", "--message", "-"],
      stdin: text)
    let fromPipe = try await app.runShell(
      #"cat '\#(file.path)' | "$APP" messages send --to 'Quiet Person' --subject long --message -"#)
    let filed = try await app.run(["messages", "--user", "john", "--json"])
    let piped = try await app.run(["messages", "--user", "Quiet Person", "--json"])

    #expect(fromFile.status == 0, "\(fromFile.stderr)")
    #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
    #expect(fromPipe.stderr.contains("Sent to Quiet Person."))
    // The one newline that ends the input is not part of the message.
    let expected = String(text.dropLast())
    for shown in [filed, piped] {
      let person = try JSONDecoder().decode(Person.self, from: Data(shown.stdout.utf8))
      #expect(person.messages.last?.message == expected, "whole, after the earlier ones")
    }
    _ = try await app.run(["logout"])
  }

  /// A file with a zero byte in it (a binary file sent by mistake): the server refuses it,
  /// whichever store it runs on, and the app says so and sends nothing.
  @Test func send_ofTextHoldingAZeroByte_isRefused_andNothingIsSent() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let sent = try await app.run(
      ["messages", "send", "--to", "Zero Friend", "--subject", "bytes", "--message", "-"],
      stdin: "before\u{0}after")
    let listed = try await app.run(["messages", "--user", "Zero Friend"])

    #expect(sent.status == 1)
    #expect(
      sent.stderr.contains(
        "error: The server answered HTTP 400: message must not contain the character U+0000."),
      "\(sent.stderr)")
    #expect(!sent.stdout.contains("before"))
    #expect(listed.status != 0)
    #expect(listed.stderr.contains("Zero Friend"), "\(listed.stderr)")
    _ = try await app.run(["logout"])
  }
}
