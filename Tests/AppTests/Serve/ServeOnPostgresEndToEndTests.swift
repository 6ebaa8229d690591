import Foundation
import TestSupport
import Testing

@testable import App

/// `app serve --database-url`, as an operator runs it: several instances, each a process of
/// its own, on one PostgreSQL database of the test cluster. Devices talk to whichever
/// instance, as a load balancer would send them.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"),
  .enabled(if: PostgresTestCluster.isAvailable, "needs PostgreSQL (CI=true makes this a failure)"))
struct ServeOnPostgresEndToEndTests {
  @Test func threeInstancesStartedTogether_shareAccountsMessagesAndRealtimeLikes() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let database = try await PostgresTestCluster.shared().makeDatabase()
    let (a, b, c) = try await threeInstances(app, database: database.url)
    defer { [a, b, c].forEach { $0.cancel() } }
    let deviceA = ["--api-url", a.url, "--data-dir", app.scratch.path + "/a"]
    let deviceB = try AppRunner.inProcess(
      CompositionSeams(sessionStore: InMemoryUserSessionDataStore()))
    defer { deviceB.remove() }

    // An account made through A signs in through B.
    let signedUp = try await app.run(
      ["signup", "--username", "alice", "--name", "Alice", "--password-stdin"] + deviceA,
      stdin: "alice-password-1")
    let signedIn = try await deviceB.run(
      ["login", "--username", "alice", "--password-stdin", "--api-url", b.url],
      stdin: "alice-password-1")
    #expect(signedUp.status == 0, "\(signedUp.stderr)")
    #expect(signedIn.status == 0, "\(signedIn.stderr)")

    // A message sent through B is read through C.
    let sent = try await deviceB.run(
      [
        "messages", "send", "--to", "Zoë", "--subject", "hi", "--message", "through B",
        "--api-url", b.url,
      ])
    let token = try await PlainHTTP.signIn(port: c.port, "alice", "alice-password-1")
    let read = try await PlainHTTP.request("GET", "/messages/Zo%C3%AB", port: c.port, token: token)
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(read.status == 200 && read.body.contains("through B"), "\(read.body)")

    // A like back through B reaches a watch connected to A within a second.
    let page = try LikesEndToEndTests.json(
      try await deviceB.run(["likes", "--json", "--api-url", b.url]).stdout)
    let id = try #require((page["items"] as? [[String: Any]])?.first?["id"] as? String)
    async let watched = app.run(["likes", "watch", "--for", "15s"] + deviceA, sharesASlot: false)
    try await waitUntil("the watch polls A a second time", within: .seconds(14)) {
      a.log.components(separatedBy: "GET /events").count > 2
    }
    let answeredBefore = a.log.components(separatedBy: "GET /events 200").count
    let liked = try await deviceB.run(["likes", "like", id, "--api-url", b.url])
    try await waitUntil("A answers the watch's poll", within: Self.realtimeBound) {
      a.log.components(separatedBy: "GET /events 200").count > answeredBefore
    }
    let watch = try await watched

    #expect(liked.stdout.hasPrefix("🎉 It's a match with "), "\(liked.stderr)")
    #expect(watch.stdout.contains("🎉 It's a match with "), "\(watch.stdout)")
    for instance in [a, b, c] {
      let stopped = try await instance.stop()
      #expect(stopped.status == 0, "\(stopped.stderr)")
      #expect(!stopped.stderr.contains("alice-password-1"))
    }
  }

  @Test func theShellOnA_showsTheMatchBanner_ofALikeBackThroughB() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let database = try await PostgresTestCluster.shared().makeDatabase()
    let arguments = Self.serving(database.url)
    async let startedA = ServeProcess.start(in: app, arguments)
    async let startedB = ServeProcess.start(in: app, arguments)
    let (a, b) = try await (startedA, startedB)
    defer { [a, b].forEach { $0.cancel() } }
    let deviceA = ["--api-url", a.url, "--data-dir", app.scratch.path + "/a"]
    let signedIn = try await app.run(
      ["login", "--username", "demo", "--password-stdin"] + deviceA, stdin: "demo-password")
    try #require(signedIn.status == 0, "\(signedIn.stderr)")
    let token = try await PlainHTTP.signIn(port: b.port, "demo", "demo-password")
    let page = try await PlainHTTP.request(
      "GET", "/likes?page=1&batchSize=1", port: b.port, token: token)
    let id = try #require(
      ((try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any])?["data"]
        as? [[String: Any]])?.first?["id"] as? String)

    let terminal = try app.onTerminal(deviceA)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    // The shell's realtime poll waits on A once it asks a second time.
    try await waitUntil("the shell polls A a second time", within: .seconds(14)) {
      a.log.components(separatedBy: "GET /events").count > 2
    }
    let liked = try await PlainHTTP.request("POST", "/likes/\(id)/like", port: b.port, token: token)
    try await terminal.waitUntil("the match banner on A", within: Self.realtimeBound) {
      $0.contains("It's a match with")
    }
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    #expect(liked.status == 200)
    #expect(ended.status == 0, "\(terminal.screen.debugDescription)")
    _ = try await a.stop()
    _ = try await b.stop()
  }

  @Test func killingOneInstance_losesNothingTheOthersAccepted_andSIGTERMFinishesItsPolls()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let database = try await PostgresTestCluster.shared().makeDatabase()
    let (a, b, c) = try await threeInstances(app, database: database.url, killed: SIGKILL)
    defer { [a, b, c].forEach { $0.cancel() } }
    let token = try await PlainHTTP.signIn(port: a.port, "demo", "demo-password")

    // Writes through all three; C is killed with -9 after its fifth.
    let accepted = try await withThrowingTaskGroup(of: [String].self) { group in
      for (name, instance) in [("A", a), ("B", b), ("C", c)] {
        group.addTask {
          var accepted: [String] = []
          for index in 0..<12 {
            let text = "\(name)-\(index)"
            let body =
              #"{"user":"john","operation":"add_message","subject":"s","message":"\#(text)"}"#
            guard
              let answer = try? await PlainHTTP.request(
                "POST", "/messages", port: instance.port, token: token, body: body),
              answer.status == 200
            else { break }
            accepted.append(text)
            if name == "C" && index == 4 { _ = try await instance.stop() }
          }
          return accepted
        }
      }
      var all: [String] = []
      for try await part in group { all += part }
      return all
    }
    let stored = try await PlainHTTP.request("GET", "/messages/john", port: b.port, token: token)

    #expect(accepted.filter { $0.hasPrefix("C-") }.count == 5, "C took writes until killed")
    #expect(accepted.count == 29, "A and B took all of theirs: \(accepted)")
    // The conversation's JSON sits in the envelope's "body" string: its quotes are escaped.
    let storedTexts = accepted.filter { stored.body.contains(#"\"\#($0)\""#) }
    #expect(storedTexts == accepted, "everything accepted is stored")

    // SIGTERM of B while a long poll waits on it: the poll is answered, B exits 0, and A
    // serves throughout.
    let poll = Task {
      try await PlainHTTP.request("GET", "/events?after=999999&wait=3", port: b.port, token: token)
    }
    // The first poll of the account sets when its first made-up like is due: once that row
    // is there, B is inside the poll.
    let cluster = try await PostgresTestCluster.shared()
    for _ in 0..<500 {
      let rows = try await cluster.psql(
        "SELECT count(*) FROM like_generator", database: database.name)
      if rows.hasPrefix("1") { break }
      await Task.yield()
    }
    #expect(
      try await cluster.psql("SELECT count(*) FROM like_generator", database: database.name)
        .hasPrefix("1"), "the poll is under way on B")
    let stopping = Task { try await b.stop() }
    let duringStop = try await PlainHTTP.request("GET", "/me", port: a.port, token: token)
    let polled = try await poll.value
    let stopped = try await stopping.value

    #expect(duringStop.status == 200)
    #expect(polled.status == 200, "the poll in flight is answered: \(polled.body)")
    #expect(stopped.status == 0)
    #expect(stopped.stderr.hasSuffix("Stopped: every request in flight was answered.\n"))
    _ = try await a.stop()
  }

  @Test func aDatabaseThatCannotBeUsed_endsServeWithinSeconds_namingItsHost_neverThePassword()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let cluster = try await PostgresTestCluster.shared()
    // Each timed from its start: not waiting for a slot among the suite's processes.
    let started = ContinuousClock.now
    // Nothing listens on port 1; the cluster has no database "nowhere".
    let refused = try await app.run(
      ["serve", "--port", "0", "--database-url", "postgres://app:pa55word@127.0.0.1:1/app"],
      sharesASlot: false)
    let refusedTook = ContinuousClock.now - started
    let unknown = try await app.run(
      ["serve", "--port", "0", "--database-url", cluster.url(database: "nowhere")],
      environment: ["PGPASSWORD": "pa55word"], sharesASlot: false)
    let unknownTook = ContinuousClock.now - started - refusedTook
    let badURL = try await app.run(
      ["serve", "--port", "0"], environment: ["APP_DATABASE_URL": "mysql://app@db/app"])

    #expect(refusedTook < .seconds(10) && unknownTook < .seconds(10), "each ends within seconds")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("cannot use the database at 127.0.0.1:1"), "\(refused.stderr)")
    #expect(unknown.status == 1)
    #expect(
      unknown.stderr.contains(#"database "nowhere" does not exist"#)
        && unknown.stderr.contains(cluster.socketFolder), "\(unknown.stderr)")
    #expect(badURL.status == 1)
    #expect(badURL.stderr.contains("a database URL looks like postgres://"), "\(badURL.stderr)")
    for result in [refused, unknown, badURL] {
      #expect(!result.stderr.contains("pa55word") && !result.stdout.contains("pa55word"))
    }
  }

  /// A database that lets `app serve` connect and then says nothing (a hung server, a
  /// half-open network): `connect_timeout` bounds the wait, and the error says so.
  @Test func aDatabaseThatNeverAnswers_endsServeAfterTheURLsConnectTimeout() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let silent = try SilentUnixSocket(named: ".s.PGSQL.5432")
    defer { silent.remove() }
    let url = "postgres://app@/app?host=\(silent.folder.path)&connect_timeout=1"

    let started = ContinuousClock.now
    let result = try await app.run(
      ["serve", "--port", "0", "--database-url", url], sharesASlot: false)
    let took = ContinuousClock.now - started

    #expect(result.status == 1)
    #expect(
      result.stderr.contains("cannot use the database at \(silent.path)")
        && result.stderr.contains("no answer within 1 s (connect_timeout="), "\(result.stderr)")
    #expect(took >= .seconds(1), "it waited the URL's second, not less")
  }

  // MARK: - Helpers

  /// A second for realtime to reach another instance through a notification; with them
  /// off, the next look (every second) and the time to answer.
  private static let realtimeBound: Duration =
    PostgresTestCluster.notifications ? .seconds(1) : .seconds(2)

  private static func serving(_ database: String) -> [String] {
    ["--database-url", database, "--database-pool-size", "4"]
      + (PostgresTestCluster.notifications ? [] : ["--no-database-notifications"])
  }

  private func threeInstances(
    _ app: AppRunner, database: String, killed: Int32 = SIGTERM
  ) async throws -> (ServeProcess, ServeProcess, ServeProcess) {
    // Started together on a new database: they take turns at migrating it.
    let arguments = Self.serving(database)
    async let a = ServeProcess.start(in: app, arguments)
    async let b = ServeProcess.start(in: app, arguments)
    async let c = ServeProcess.start(in: app, arguments, stopSignal: killed)
    return try await (a, b, c)
  }
}

extension ServeProcess {
  var port: Int { URLComponents(string: url)?.port ?? 0 }
}

/// HTTP/1.1 requests over a plain socket, one connection each.
enum PlainHTTP {
  struct Answer: Sendable {
    let status: Int
    let body: String
    /// The status line and the headers, as sent.
    var head = ""
  }

  static func request(
    _ method: String, _ path: String, port: Int, token: String? = nil, body: String? = nil
  ) async throws -> Answer {
    let connection = try RawHTTPConnection(port: port)
    var head = "\(method) \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    if let body {
      head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
    }
    try await connection.send(head + "\r\n" + (body ?? ""))
    let answer = await connection.readUntilClosed(limit: 30).text
    let parts = answer.components(separatedBy: "\r\n\r\n")
    let statusLine = parts.first?.split(separator: " ") ?? []
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw RawHTTPConnection.Failure("no answer: \(answer)")
    }
    return Answer(
      status: status, body: parts.dropFirst().joined(separator: "\r\n\r\n"),
      head: parts.first ?? "")
  }

  static func signIn(port: Int, _ username: String, _ password: String) async throws -> String {
    let body = #"{"grant_type":"password","username":"\#(username)","password":"\#(password)"}"#
    let answer = try await request("POST", "/oauth/token", port: port, body: body)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
      "\(answer.body)")
    return try #require(document["access_token"] as? String)
  }
}
