import Foundation
import TestSupport
import Testing

@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct MessagesEndToEndTests {
  @Test func messages_listsEverybodySorted_withMultiLineMessagesAsOneItem() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let result = try await app.run(["messages"])

    #expect(result.status == 0, "\(result.stderr)")
    let headings = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.isEmpty }
    #expect(
      headings == [
        "Ana María — 1 message", "bob — 1 message", "john — 2 messages",
        "O'Neil \"Ace\" — 1 message",
        "Quiet Person — no messages", "Zoë — 1 message", "Мария — 1 message", "山田太郎 — 1 message",
        "🐱 cat — 1 message",
      ])
    #expect(result.stdout.contains("  • 会議\n    明日の会議は10時です。\n    資料を持ってきてください。\n"))
    #expect(result.stdout.contains("    name\tage\n    Ana\t34\n"))
    #expect(result.stdout.contains(#"    C:\Users\ace and a \"quoted\" word"#))
    _ = try await app.run(["logout"])
  }

  @Test func messages_json_keepsEveryCharacterExactly() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let result = try await app.run(["messages", "--json"])

    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let people = try #require(document["people"] as? [[String: Any]])
    #expect(people.compactMap { $0["name"] as? String }.first == "Ana María")
    let zoe = try #require(people.first { $0["name"] as? String == "Zoë" })
    let message = try #require((zoe["messages"] as? [[String: Any]])?.first)
    #expect(message["subject"] as? String == "Café")
    #expect(message["message"] as? String == "Meet at the café?\nBring a \"good\" book.")
    #expect(
      message["fromMe"] is NSNull && message["sentAt"] is NSNull,
      "an invented conversation says neither who wrote it nor when: \(message)")
    _ = try await app.run(["logout"])
  }

  @Test func messagesOfOnePerson_acceptsAnyName_andSaysWhenThereIsNoSuchPerson() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let quoted = try await app.run(["messages", "--user", "O'Neil \"Ace\""])
    let cjk = try await app.run(["messages", "--user", "山田太郎", "--json"])
    let quiet = try await app.run(["messages", "--user", "Quiet Person"])
    let ghost = try await app.run(["messages", "--user", "no/body"])

    #expect(quoted.status == 0)
    #expect(quoted.stdout.hasPrefix("O'Neil \"Ace\" — 1 message\n  • paths\n"))
    #expect(cjk.stdout.contains(#""name" : "山田太郎""#))
    #expect(quiet.stdout == "Quiet Person — no messages\n")
    #expect(ghost.status == 1)
    #expect(ghost.stderr.contains("error: There is no person called no/body."))
    _ = try await app.run(["logout"])
  }

  @Test func send_postsAndShowsTheRecipientsMessages_readingTheTextFromStdin() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let sent = try await app.run(
      ["messages", "send", "--to", "Quiet Person", "--subject", "hi \"you\"", "--message", "-"],
      stdin: "line one\nline\ttwo \\ end\n")
    let later = try await app.run(["messages", "--user", "Quiet Person", "--json"])
    let stranger = try await app.run(
      ["messages", "send", "--to", "New Friend", "--subject", "hi", "--message", "hello"])
    let nobody = try await app.run(["messages", "--user", "New Friend"])

    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(sent.stderr.contains("Sent to Quiet Person."))
    #expect(sent.stdout.hasPrefix("Quiet Person — 1 message\n  • hi \"you\" — you, "))
    #expect(sent.stdout.hasSuffix("\n    line one\n    line\ttwo \\ end\n"))
    #expect(later.stdout.contains(#""message" : "line one\nline\ttwo \\ end""#))
    #expect(later.stdout.contains(#""fromMe" : true"#))
    // Only matches, and the people it talks with already, can be written to.
    #expect(stranger.status == 1)
    #expect(
      stranger.stderr
        == "error: New Friend is not a match of yours: only matches can write to each other. Nothing was sent.\n"
    )
    #expect(stranger.stdout.isEmpty)
    #expect(nobody.status == 1, "nothing was stored")
    _ = try await app.run(["logout"])
  }

  @Test(arguments: [502, 503, 500])
  func aSendTheServerFails_isNeverReportedAsSent(status: Int) async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("POST /messages", status: status, body: "<html>bad gateway</html>")
    let send = ["messages", "send", "--to", "Zoë", "--subject", "s", "--message", "m"]

    let text = try await app.run(send + ["--api-url", served.apiURL])
    let json = try await app.run(send + ["--json", "--api-url", served.apiURL])

    #expect(text.status == 1, "\(text.stderr)")
    #expect(!text.stderr.contains("Sent to"), "\(text.stderr)")
    #expect(text.stdout.isEmpty, "nothing shown as the recipient's messages")
    #expect(json.status == 1)
    let document = JSONShapes.document(json.stdout)
    #expect(document?["sent"] == nil, "\(json.stdout)")
    #expect(document?["error"]?["code"]?.string != nil, "\(json.stdout)")
  }

  @Test func send_refusesAnEmptySubjectOrMessage_asAUsageError_beforeAnyRequest() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    let before = served.requests.count

    let result = try await app.run(
      [
        "messages", "send", "--api-url", served.apiURL, "--to", "bob", "--subject", "", "--message",
        " ",
      ])

    let blankStdin = try await app.run(
      [
        "messages", "send", "--api-url", served.apiURL, "--to", "bob", "--subject", "s",
        "--message", "-",
      ], stdin: " \n")

    #expect(result.status == 64)
    #expect(result.stderr.contains("--subject must not be empty."), "\(result.stderr)")
    #expect(blankStdin.status == 1, "text from stdin is checked by the form")
    #expect(blankStdin.stderr.contains("error: Enter a message."), "\(blankStdin.stderr)")
    #expect(served.requests.count == before)
    _ = try await app.run(["logout", "--api-url", served.apiURL])
  }

  @Test(arguments: [
    (
      200, #"{"statusCode":503,"body":"{\"error\":\"maintenance until noon\"}"}"#,
      "error: The server answered HTTP 503: maintenance until noon."
    ),
    (
      200, #"{"statusCode":200,"body":"{\"john\":[{\"message\":\"no subject\"}]}"}"#,
      #"error: The server's answer could not be read: the envelope's body is malformed: "john"[0] has no "subject"."#
    ),
    (
      200, #"{"statusCode":200,"body":"{not json"}"#,
      "error: The server's answer could not be read: the envelope's body is not valid JSON."
    ),
    (
      200, #"{"statusCode":200,"body":{"john":[]}}"#,
      "error: The server's answer could not be read: the envelope's body is not a string."
    ),
    (502, "<html>Bad Gateway</html>", "error: The server answered HTTP 502."),
  ])
  func aBrokenAnswer_endsInAClearMessage_exit1(status: Int, body: String, message: String)
    async throws
  {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("GET /messages", status: status, body: body)

    let result = try await app.run(["messages", "--api-url", served.apiURL])

    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(await app.keyring.accounts(server: served.apiURL) == ["demo"])
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }

  @Test func aServerThatIsDown_exit1() async throws {
    let served = try await ServedBackend.start()
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    await served.stop()

    let result = try await app.run([
      "messages", "send", "--api-url", served.apiURL, "--to", "bob", "--subject", "s", "--message",
      "m",
    ])

    #expect(result.status == 1)
    #expect(result.stderr.contains("error: The server is unreachable"))
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }

  @Test func signedOut_exit4_andAnExpiredSession_isRemoved() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let signedOut = try await app.run(["messages", "--api-url", served.apiURL])
    try await app.signInDemo(on: served)
    served.answer("GET /messages", status: 401, body: #"{"error":"invalid_token"}"#)
    let expired = try await app.run(["messages", "--api-url", served.apiURL, "--json"])

    #expect(signedOut.status == 4)
    #expect(signedOut.stderr.contains("hint: Run `app login` to sign in."))
    #expect(
      served.requests.first == "POST /oauth/token", "signed out, nothing was asked of the server")
    #expect(expired.status == 4)
    #expect(expired.stdout.contains(#""code" : "session_expired""#))
    #expect(await app.keyring.accounts(server: served.apiURL).isEmpty)
  }
}

extension AppRunner {
  /// Signs the demo account in on this runner's embedded backend.
  func signInDemoEmbedded() async throws {
    let result = try await run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "demo-password")
    #expect(result.status == 0, "signing in failed: \(result.stderr)")
  }
}
