import Foundation
import TestSupport
import Testing

@testable import App

/// `app people`, `app likes unmatch` and `app watch` between accounts on a real `app serve`,
/// each account a process of its own with its own data folder, their sessions side by side
/// in one keyring, and one folder switching between two accounts: they find each other,
/// like, match, talk, and part; stdout, stderr and exit codes checked.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct PeopleEndToEndTests {
  @Test func twoAccounts_findLikeMatchTalkAndPart_throughTheCommands() async throws {
    let server = try AppRunner()
    defer { server.remove() }
    let served = try await ServeProcess.start(
      in: server, ["--data-dir", server.scratch.path + "/server"], demo: false)
    defer { served.cancel() }
    let ana = try Device(served)
    let ben = try Device(served)
    defer { [ana, ben].forEach { $0.app.remove() } }
    try await ana.signUp("ana", "Ana Lima")
    try await ben.signUp("ben", "Ben Ö")

    // Find: ana sees ben, with his name, and he her.
    let found = try await ana.run(["people", "--json"])
    #expect(found.status == 0, "\(found.stderr)")
    let people = try #require(try Device.json(found.stdout)["people"] as? [[String: Any]])
    #expect(people.map { $0["userName"] as? String } == ["ben"])
    #expect(people.first?["name"] as? String == "Ben Ö")
    let bensID = try #require(people.first?["id"] as? String)
    let text = try await ana.run(["people"])
    #expect(text.stdout.contains("  \(bensID.prefix(8))  ben (Ben Ö)"), "\(text.stdout)")

    // Like by a prefix of the id shown; the other likes back: a match.
    let liked = try await ana.run(["people", "like", String(bensID.prefix(8))])
    #expect(liked.status == 0, "\(liked.stderr)")
    #expect(liked.stdout == "Liked ben: if they like you back, it's a match.\n")
    let forBen = try Device.json(try await ben.run(["people", "--json"]).stdout)
    let anasID = try #require((forBen["people"] as? [[String: Any]])?.first?["id"] as? String)
    let matched = try await ben.run(["people", "like", anasID, "--json"])
    #expect(matched.status == 0, "\(matched.stderr)")
    #expect(try Device.json(matched.stdout)["mutualMatch"] as? Bool == true)
    let mutuals = try await ana.run(["likes", "mutuals"])
    #expect(mutuals.stdout.contains("ben"), "\(mutuals.stdout)")

    // Talk: ana's watch shows ben's message as it comes, and who wrote what.
    // Stopped with Ctrl-C once the message is shown: nothing depends on how fast it came.
    let id = UUID().uuidString
    let output = ana.app.scratch.appendingPathComponent("\(id).out")
    async let watched = ana.app.run(
      AppRunner.binary, ["watch", "--json"] + ana.api, stdin: nil, environment: [:], id: id,
      stopWhen: {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains(#""type":"message""#)
      }, stopSignal: SIGINT)
    try await waitUntil("ana's watch polls", within: .seconds(10)) {
      served.log.components(separatedBy: "GET /events").count >= 2
    }
    let sent = try await ben.run(
      ["messages", "send", "--to", "ana", "--subject", "hi", "--message", "coffee?"])
    #expect(sent.status == 0, "\(sent.stderr)")
    let watch = try await watched
    #expect(watch.status == 130, "stopped by Ctrl-C: \(watch.stderr)")
    for line in watch.stdout.split(separator: "\n") {
      let document = try #require(JSONShapes.document(String(line)), "\(line)")
      // Ctrl-C ends the stream with an error line, as every JSON Lines command's.
      let shape = document["error"] == nil ? "watchLine" : "error"
      #expect(JSONShapes.documented.problems(document, against: shape) == [])
    }
    let lines = watch.stdout.split(separator: "\n").map { try? Device.json(String($0)) }
    let message = lines.compactMap { $0 }.first { $0["type"] as? String == "message" }
    #expect((message?["person"] as? [String: Any])?["userName"] as? String == "ben")
    #expect((message?["message"] as? [String: Any])?["message"] as? String == "coffee?")
    #expect((message?["message"] as? [String: Any])?["fromMe"] as? Bool == false)
    #expect(watch.stderr.contains("1 message"), "\(watch.stderr)")
    let read = try await ana.run(["messages", "--user", "ben"], environment: ["TZ": "UTC"])
    #expect(read.stdout.hasPrefix("ben — 1 message\n  • hi — ben, "), "\(read.stdout)")

    // Part: ben ends the match; ana can no longer write, and is told why.
    let ended = try await ben.run(["likes", "unmatch", String(anasID.prefix(8))])
    #expect(ended.status == 0, "\(ended.stderr)")
    #expect(
      ended.stdout == "Ended your match with ana: the conversation is gone for both of you.\n")
    let late = try await ana.run(
      ["messages", "send", "--to", "ben", "--subject", "s", "--message", "still there?"])
    #expect(late.status == 1)
    #expect(
      late.stderr
        == "error: ben has just unmatched you: only matches can write to each other. Nothing was sent.\n",
      "ana had seen ben among her mutuals")

    // Block: ana blocks ben by his whole id; to ben she has disappeared.
    #expect(try await ana.run(["people", "block", bensID]).status == 0)
    let unknown = try await ben.run(["people", "like", anasID])
    #expect(unknown.status == 1)
    #expect(unknown.stderr == "error: Nobody has the id \(anasID).\n")

    // Hostile input: your own id, a short prefix, an unknown prefix.
    let me = try Device.json(try await ana.run(["session", "--json"]).stdout)
    let ownID = try #require(me["userID"] as? String)
    let own = try await ana.run(["people", "like", ownID])
    #expect(own.status == 1)
    #expect(own.stderr.contains("That is your own id"), "\(own.stderr)")
    let short = try await ana.run(["people", "pass", "abc"])
    #expect(short.status == 1 && short.stderr.contains("too short"))
    let nobody = try await ana.run(["people", "pass", "ffffffff"])
    #expect(nobody.status == 1 && nobody.stderr == "error: Nobody has the id ffffffff.\n")

    // One folder, two people: carl signs in on ana's device beside her, meets ben, and the
    // folder goes back to ana, whose session never ended; ben's folder stays ben's.
    try await ana.signUp("carl", "Carl")
    let carlSees = try Device.json(try await ana.run(["people", "--json"]).stdout)
    #expect(
      (carlSees["people"] as? [[String: Any]])?.compactMap { $0["userName"] as? String } == [
        "ben", "ana",
      ])
    let switched = try await ana.run(["switch", "ana"])
    #expect(switched.status == 0 && switched.stdout.hasPrefix("Signed in as ana (Ana Lima)"))
    let accounts = try await ana.run(["accounts"])
    #expect(accounts.stdout.contains("* ana\n"), "\(accounts.stdout)")
    #expect(try await ben.run(["session"]).stdout.hasPrefix("Signed in as ben (Ben Ö)"))
    for device in [ana, ben] { _ = try await device.run(["logout", "--all"]) }
  }
}

/// One person's device: the built app, with its own data folder.
private struct Device {
  let app: AppRunner
  let api: [String]

  init(_ served: ServeProcess) throws {
    app = try AppRunner()
    api = ["--api-url", served.url]
  }

  func signUp(_ username: String, _ name: String) async throws {
    let result = try await run(
      ["signup", "--username", username, "--name", name, "--password-stdin"],
      stdin: "\(username)-password-1")
    #expect(result.status == 0, "\(result.stderr)")
  }

  func run(
    _ arguments: [String], stdin: String? = nil, environment: [String: String?] = [:],
    sharesASlot: Bool = true
  ) async throws -> AppRunner.Result {
    try await app.run(
      arguments + api, stdin: stdin, environment: environment, sharesASlot: sharesASlot)
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }
}
