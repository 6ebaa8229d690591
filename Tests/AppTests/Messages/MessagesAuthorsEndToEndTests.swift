import Foundation
import TestSupport
import Testing

/// A server that says who wrote each message and when (API.md section 2: always between two
/// accounts) is shown as it says, in the person's time zone; where it says nothing, nothing
/// is made up. The answer is written here from the contract, not by the suite's backend,
/// which does not store authors yet. `app` runs as a process of its own, in Paris.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct MessagesAuthorsEndToEndTests {
  private static let paris: [String: String?] = ["TZ": "Europe/Paris"]
  /// 2027-01-15 08:00:00 UTC: 09:00 in Paris, offset +01:00.
  private static let sent = 1_800_000_000

  private static let body =
    #"{"statusCode":200,"body":"{\"ana\":[{\"subject\":\"Hi\",\"message\":\"Coffee?\","#
    + #"\"fromMe\":true,\"sentAt\":1800000000},{\"subject\":\"Re: Hi\",\"message\":\"Yes\","#
    + #"\"fromMe\":false,\"sentAt\":1800000090,\"seen\":true}],\"john\":[{\"subject\":\"pets\","#
    + #"\"message\":\"cats\"}]}"}"#

  @Test func messages_sayWhoWroteEachAndWhen_inTheLocalTimeZone() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("GET /messages", status: 200, body: Self.body)

    let text = try await app.run(["messages", "--api-url", served.apiURL], environment: Self.paris)
    let json = try await app.run(
      ["messages", "--json", "--api-url", served.apiURL], environment: Self.paris)

    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout == """
        ana — 2 messages
          • Hi — you, 2027-01-15 09:00:00
            Coffee?
          • Re: Hi — ana, 2027-01-15 09:01:30
            Yes

        john — 1 message
          • pets
            cats

        """)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let people = try #require(document["people"] as? [[String: Any]])
    let ana = try #require(people.first?["messages"] as? [[String: Any]])
    let john = try #require(people.last?["messages"] as? [[String: Any]])
    #expect(ana.map { $0["fromMe"] as? Bool } == [true, false])
    #expect(
      ana.map { $0["sentAt"] as? String } == [
        "2027-01-15T09:00:00+01:00", "2027-01-15T09:01:30+01:00",
      ])
    #expect(john.first?["fromMe"] is NSNull && john.first?["sentAt"] is NSNull)
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }

  @Test func anAuthorOrTimeOfTheWrongType_isAClearError() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer(
      "GET /messages", status: 200,
      body:
        #"{"statusCode":200,"body":"{\"ana\":[{\"subject\":\"s\",\"message\":\"m\",\"sentAt\":\"noon\"}]}"}"#
    )

    let result = try await app.run(["messages", "--api-url", served.apiURL])

    #expect(result.status == 1)
    #expect(
      result.stderr.contains(#"the envelope's body is malformed: "ana"[0].sentAt is not a number"#),
      "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }
}
