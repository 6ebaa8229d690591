import Foundation
import TestSupport
import Testing

/// API.md section 5 against real `app serve` processes, each account its own client:
/// accounts find each other, like, match, talk, unmatch and block, on SQLite, and across two
/// PostgreSQL instances, where what one instance takes reaches a long poll on the other.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ServePeopleEndToEndTests {
  @Test func accountsFindLikeMatchTalkUnmatchAndBlock_onAServerForRealUse() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"], demo: false)
    defer { server.cancel() }
    let port = server.port
    let ana = try await Person.signUp("ana", "Ana", port: port)
    let ben = try await Person.signUp("ben", "Ben Ö", port: port)
    let cy = try await Person.signUp("cyd", "山田", port: port)

    // Find: newest first, never yourself, with each one's name.
    let found = try await ana.json("GET", "/people?page=1&batchSize=20")
    #expect(Person.people(found) == ["cyd 山田", "ben Ben Ö"])

    // Like: at once on the other's likes, and as an event.
    let liked = try await ana.json("POST", "/people/\(ben.id)/like")
    #expect(liked["mutualMatch"] as? Bool == false)
    #expect(Person.people(try await ben.json("GET", "/likes?page=1&batchSize=20")) == ["ana Ana"])
    let bensFirst = try await ben.json("GET", "/events?after=0")
    #expect(Person.events(bensFirst) == ["likedYouInserted ana"])
    let again = try await ana.send("POST", "/people/\(ben.id)/like")
    #expect(again.status == 200)
    #expect(Person.events(try await ben.json("GET", "/events?after=0")).count == 1, "told once")

    // Match: a like back is a match for both.
    let back = try await ben.json("POST", "/likes/\(ana.id)/like")
    #expect(back["mutualMatch"] as? Bool == true)
    #expect(Person.people(try await ana.json("GET", "/mutuals")) == ["ben Ben Ö"])
    #expect(Person.people(try await ben.json("GET", "/mutuals")) == ["ana Ana"])

    // Talk: one conversation, with who wrote each message and when; a poll is woken.
    let bensLast = try await ben.json("GET", "/events?after=0")["last"] as? Int ?? 0
    async let woken = ben.json("GET", "/events?after=\(bensLast)&wait=10")
    let sent = try await ana.send(
      "POST", "/messages",
      #"{"user":"ben","operation":"add_message","subject":"hi","message":"coffee?"}"#)
    #expect(sent.body.contains(#""statusCode":200"#), "\(sent.body)")
    let message = try #require((try await woken)["events"] as? [[String: Any]]).first
    #expect(message?["type"] as? String == "message")
    let carried = message?["message"] as? [String: Any]
    #expect(carried?["message"] as? String == "coffee?")
    #expect(carried?["fromMe"] as? Bool == false)
    #expect(carried?["sentAt"] as? Int != nil)
    let bensView = try await ben.send("GET", "/messages/ana")
    #expect(bensView.body.contains(#"\"fromMe\":false"#), "\(bensView.body)")

    // Only matches talk: nothing stored for a stranger.
    let toStranger = try await ana.send(
      "POST", "/messages",
      #"{"user":"cyd","operation":"add_message","subject":"hi","message":"hello"}"#)
    #expect(toStranger.body.contains(#""statusCode":403"#), "\(toStranger.body)")
    #expect(toStranger.body.contains("not_a_match"))
    #expect(try await cy.send("GET", "/messages").body.contains(#""body":"{}""#))

    // Unmatch: the conversation is gone for both; the other is told.
    let anasLast = try await ana.json("GET", "/events?after=0")["last"] as? Int ?? 0
    #expect(try await ben.send("DELETE", "/mutuals/\(ana.id)").status == 204)
    #expect(try await ben.send("DELETE", "/mutuals/\(ana.id)").status == 404)
    #expect(
      Person.events(try await ana.json("GET", "/events?after=\(anasLast)")) == ["unmatched ben"])
    #expect(try await ana.send("GET", "/messages/ben").body.contains(#""statusCode":404"#))
    let late = try await ana.send(
      "POST", "/messages",
      #"{"user":"ben","operation":"add_message","subject":"s","message":"still there?"}"#)
    #expect(late.body.contains("not_a_match"))

    // Block: to the blocked, the blocker is an unknown id; nothing is told.
    _ = try await cy.send("POST", "/people/\(ana.id)/like")
    #expect(try await ana.send("POST", "/people/\(cy.id)/block").status == 204)
    let cysLike = try await cy.send("POST", "/people/\(ana.id)/like")
    let unknownLike = try await cy.send("POST", "/people/\(Person.nobody)/like")
    #expect(cysLike.status == 404 && unknownLike.status == 404)
    #expect(
      cysLike.body.replacingOccurrences(of: ana.id, with: "ID")
        == unknownLike.body.replacingOccurrences(of: Person.nobody, with: "ID"),
      "a block answers as an unknown id does")
    #expect(Person.events(try await cy.json("GET", "/events?after=0")).isEmpty)
    #expect(
      !Person.people(try await cy.json("GET", "/people?page=1&batchSize=20")).contains("ana Ana"))

    // Hostile ids.
    #expect(try await ana.send("POST", "/people/\(ana.id)/like").status == 422)
    #expect(try await ana.send("POST", "/people/\(ana.id)/block").status == 422)
    #expect(try await ana.send("POST", "/people/\(Person.nobody)/pass").status == 404)
    #expect(try await ana.send("POST", "/people/%00/like").status == 404)
    #expect(try await ana.send("GET", "/people?page=0&batchSize=20").status == 422)
    // A body past the 64 KiB every route but a message takes, and names in every script.
    let oversize = String(repeating: "x", count: 64 * 1024 + 1)
    #expect(try await ana.send("POST", "/people/\(ben.id)/like", oversize).status == 413)
    let dee = try await Person.signUp("dee", "Дарья 🌸 محمد", port: port)
    let named = Person.people(try await dee.json("GET", "/people?page=1&batchSize=20"))
    #expect(named.contains("cyd 山田") && named.contains("ana Ana"), "\(named)")
  }

  /// At one like a minute, the second within the minute waits for the rest of it: nothing
  /// here depends on how fast the machine sends them.
  @Test func likesAndMessagesPastTheirPace_areTooManyAttempts_withRetryAfter() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app,
      [
        "--data-dir", app.scratch.path + "/server", "--likes-per-minute", "1",
        "--messages-per-minute", "2",
      ], demo: false)
    defer { server.cancel() }
    let ana = try await Person.signUp("ana", "Ana", port: server.port)
    let message = #"{"user":"nobody","operation":"add_message","subject":"s","message":"m"}"#

    let first = try await ana.send("POST", "/people/\(Person.nobody)/like")
    let second = try await ana.send("POST", "/people/\(Person.nobody)/like")
    let messages = [
      try await ana.send("POST", "/messages", message),
      try await ana.send("POST", "/messages", message),
      try await ana.send("POST", "/messages", message),
    ]

    #expect(first.status == 404)
    #expect(second.status == 429)
    #expect(second.body.contains("too_many_attempts"))
    let wait = second.head.lowercased().components(separatedBy: "retry-after: ").dropFirst().first
      .flatMap { Int($0.prefix { $0.isNumber }) }
    #expect(wait.map { (55...60).contains($0) } == true, "\(second.head)")
    #expect(messages.prefix(2).allSatisfy { $0.body.contains("not_a_match") })
    #expect(messages[2].status == 429, "\(messages[2].body)")
    #expect(messages[2].head.lowercased().contains("retry-after: "))
  }

  @Test(.enabled(if: PostgresTestCluster.isAvailable))
  func aLikeAMatchAndAMessage_reachALongPollOnAnotherInstance_withinASecond() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let database = try await PostgresTestCluster.shared().makeDatabase()
    let arguments =
      ["--database-url", database.url, "--database-pool-size", "4"]
      + (PostgresTestCluster.notifications ? [] : ["--no-database-notifications"])
    async let first = ServeProcess.start(in: app, arguments, demo: false)
    async let second = ServeProcess.start(in: app, arguments, demo: false)
    let (a, b) = try await (first, second)
    defer { [a, b].forEach { $0.cancel() } }
    let bound: Duration = PostgresTestCluster.notifications ? .seconds(1) : .seconds(2)
    let ana = try await Person.signUp("ana", "Ana", port: a.port)
    let benOnA = try await Person.signUp("ben", "Ben", port: a.port)
    let ben = benOnA.on(port: b.port)

    let acts: [(step: String, person: Person, method: String, path: String, body: String?)] = [
      ("likedYouInserted ana", ana, "POST", "/people/\(ben.id)/like", nil),
      ("mutualMatch ana", benOnA, "POST", "/people/\(ana.id)/like", nil),
      (
        "message ana", ana, "POST", "/messages",
        #"{"user":"ben","operation":"add_message","subject":"s","message":"across"}"#
      ),
    ]
    for act in acts {
      let step = act.step
      let after = try await ben.json("GET", "/events?after=0")["last"] as? Int ?? 0
      async let polled = ben.json("GET", "/events?after=\(after)&wait=20")
      // The poll is waiting on B before A takes the act.
      try await waitUntil("B holds the poll", within: .seconds(10)) {
        b.log.components(separatedBy: "GET /events").count
          > a.log.components(separatedBy: "GET /events").count
      }
      let clock = ContinuousClock()
      let start = clock.now
      _ = try await act.person.send(act.method, act.path, act.body)
      let events = Person.events(try await polled)
      let took = start.duration(to: clock.now)
      #expect(events == [step], "\(step)")
      #expect(took < bound, "\(step) took \(took)")
    }
  }
}

/// One account, as a client of the server speaks for it.
private struct Person: Sendable {
  static let nobody = "00000000-0000-4000-8000-000000000000"

  let id: String
  let token: String
  let port: Int

  static func signUp(_ username: String, _ name: String, port: Int) async throws -> Person {
    let answer = try await PlainHTTP.request(
      "POST", "/auth/signup", port: port,
      body: #"{"username":"\#(username)","password":"\#(username)-password-1","name":"\#(name)"}"#)
    let token = try #require(
      (try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])?[
        "access_token"] as? String, "\(answer.body)")
    let me = try await PlainHTTP.request("GET", "/me", port: port, token: token)
    let id = try #require(
      (try JSONSerialization.jsonObject(with: Data(me.body.utf8)) as? [String: Any])?["id"]
        as? String)
    return Person(id: id, token: token, port: port)
  }

  func on(port: Int) -> Person { Person(id: id, token: token, port: port) }

  func send(_ method: String, _ path: String, _ body: String? = nil) async throws
    -> PlainHTTP.Answer
  {
    try await PlainHTTP.request(method, path, port: port, token: token, body: body)
  }

  func json(_ method: String, _ path: String) async throws -> [String: Any] {
    let answer = try await send(method, path)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
      "\(method) \(path): \(answer.status) \(answer.body)")
  }

  /// "userName name" for each person of a page or of mutuals.
  static func people(_ page: [String: Any]) -> [String] {
    ((page["data"] as? [[String: Any]]) ?? []).map {
      "\($0["userName"] as? String ?? "?") \($0["name"] as? String ?? "?")"
    }
  }

  /// "type userName" for each event.
  static func events(_ batch: [String: Any]) -> [String] {
    ((batch["events"] as? [[String: Any]]) ?? []).map {
      "\($0["type"] as? String ?? "?") \(($0["item"] as? [String: Any])?["userName"] as? String ?? "?")"
    }
  }
}
