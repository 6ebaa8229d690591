import Foundation
import TestSupport
import Testing

/// The served backend (`buildApplication`, as `app serve` runs it) facing strangers, in
/// process on real sockets: a body over its route's limit is answered `413 body_too_large`
/// from its headers alone, and the connection closed, without the body being read; a guessed
/// password is throttled per account with `429` and `Retry-After`.
@Suite(.timeLimit(.minutes(3))) struct APIServerLimitsTests {
  @Test func aBodyOverTheLimit_is413_beforeItIsSent_andTheConnectionCloses() async throws {
    let server = try await InProcessServer.start(messageLimitMiB: 1)
    defer { server.cancel() }
    let port = try #require(URL(string: server.url)?.port)

    // 70 MB promised, not a byte of it sent: an answer proves the body was not waited for.
    let connection = try RawHTTPConnection(port: port)
    try await connection.send(
      "POST /messages HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        + "Content-Length: 73400320\r\n\r\n")
    let (answer, closed) = await connection.readUntilClosed(limit: 10)

    #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
    #expect(answer.contains(#""error":"body_too_large""#))
    #expect(answer.contains("limit of 1 MiB"))
    #expect(closed, "the rest of the body is never read: the server closes the connection")
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }

  @Test func everyOtherRoute_takes64KiB() async throws {
    let server = try await InProcessServer.start()
    defer { server.cancel() }
    let port = try #require(URL(string: server.url)?.port)
    let body = String(repeating: "x", count: (64 << 10) + 1)

    let connection = try RawHTTPConnection(port: port)
    try await connection.send(
      "POST /oauth/token HTTP/1.1\r\nHost: test\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        + body)
    let (answer, _) = await connection.readUntilClosed(limit: 10)

    #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
    #expect(answer.contains("limit of 64 KiB"))
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }

  @Test func wrongPasswords_getA429WithRetryAfter_overRealHTTP() async throws {
    let server = try await InProcessServer.start()
    defer { server.cancel() }
    let port = try #require(URL(string: server.url)?.port)
    let (statuses, last) = try await guessUntilThrottled(port: port)

    #expect(statuses.prefix(6) == ArraySlice(repeating: "HTTP/1.1 401", count: 6))
    #expect(statuses.last == "HTTP/1.1 429", "\(statuses)")
    let retryAfter = last.lowercased().components(separatedBy: "retry-after: ").dropFirst().first
    #expect(
      retryAfter?.prefix { $0.isNumber }.isEmpty == false && retryAfter?.first != "0",
      "a Retry-After of whole seconds: \(last)")
    #expect(last.contains(#""error":"too_many_attempts""#))
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }
}

/// The served backend's connections and what it tells an operator: idle connections and
/// headers that never finish are closed after the idle timeout, a long poll being answered is
/// not; `/healthz` and `/readyz`; a request id in each answer and its access-log line, as text
/// or as JSON lines; metrics by the contract's route templates; `405` with `Allow`.
@Suite(.timeLimit(.minutes(3))) struct APIServerOperationsTests {
  @Test func idleAndHalfSentConnectionsClose_butALongPollOutlivesTheTimeout() async throws {
    let server = try await InProcessServer.start(idleTimeout: .seconds(1))
    defer { server.cancel() }
    let port = try #require(URL(string: server.url)?.port)
    let token = try await Self.signIn(port: port)

    let idle = try RawHTTPConnection(port: port)
    let halfSent = try RawHTTPConnection(port: port)
    try await halfSent.send("GET /healthz HTTP/1.1\r\nHost: te")
    let poll = try RawHTTPConnection(port: port)
    try await poll.send(
      "GET /events?after=1000000&wait=3 HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
        + "Authorization: Bearer \(token)\r\n\r\n")

    let (idleText, idleClosed) = await idle.readUntilClosed(limit: 15)
    let (_, halfSentClosed) = await halfSent.readUntilClosed(limit: 15)
    let (answer, _) = await poll.readUntilClosed(limit: 15)

    #expect(idleClosed && idleText.isEmpty, "an idle connection is closed, unanswered")
    #expect(halfSentClosed, "headers that never finish do not hold a connection")
    // Waited its full 3 s (no event was due), well past the 1 s idle timeout.
    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    #expect(answer.contains(#""events":[]"#), "\(answer)")
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }

  @Test func healthAndReadiness_answer() async throws {
    let server = try await InProcessServer.start()
    defer { server.cancel() }
    let port = try #require(URL(string: server.url)?.port)

    let alive = try await Self.get("/healthz", port: port)
    let ready = try await Self.get("/readyz", port: port)

    #expect(alive.hasPrefix("HTTP/1.1 200"), "\(alive)")
    #expect(alive.contains(#"{"status":"alive"}"#))
    #expect(ready.hasPrefix("HTTP/1.1 200"), "\(ready)")
    #expect(ready.contains(#"{"status":"ready"}"#))
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }

  @Test func eachAnswer_carriesItsRequestID_andTheLogNamesIt() async throws {
    let server = try await InProcessServer.start()
    let port = try #require(URL(string: server.url)?.port)

    let given = try await Self.get("/healthz", port: port, headers: "X-Request-ID: trace-42\r\n")
    let made = try await Self.get("/nowhere", port: port)
    let forged = try await Self.get(
      "/healthz", port: port, headers: "X-Request-ID: 1 GET /admin 200\r\n")
    let log = try await server.stop().stderr

    #expect(given.lowercased().contains("x-request-id: trace-42\r\n"), "\(given)")
    let madeID = try #require(Self.header("x-request-id", in: made))
    #expect(madeID.count == 16 && madeID.allSatisfy(\.isHexDigit))
    let replaced = try #require(Self.header("x-request-id", in: forged))
    #expect(replaced.count == 16, "a caller's id that could forge a log line is replaced")
    #expect(log.contains("info serve: GET /healthz 200 "), "\(log)")
    #expect(log.contains(" ms request=trace-42\n"), "\(log)")
    #expect(log.contains("GET /nowhere 404 ") && log.contains("request=\(madeID)\n"))
  }

  @Test func jsonLogs_areOneObjectPerLine() async throws {
    let server = try await InProcessServer.start(logFormat: .json)
    let port = try #require(URL(string: server.url)?.port)

    _ = try await Self.get("/healthz", port: port, headers: "X-Request-ID: trace-7\r\n")
    let log = try await server.stop().stderr

    let lines = try log.split(separator: "\n").map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
    let request = try #require(lines.first { $0["requestID"] as? String == "trace-7" })
    #expect(request["method"] as? String == "GET")
    #expect(request["path"] as? String == "/healthz")
    #expect(request["status"] as? Int == 200)
    #expect(request["milliseconds"] is Double || request["milliseconds"] is Int)
  }

  @Test func metrics_countRequestsByRoute_throttledSignIns_andDatabaseTime() async throws {
    let server = try await InProcessServer.start()
    defer { server.cancel() }
    let port = try #require(URL(string: server.url)?.port)
    let (statuses, _) = try await guessUntilThrottled(port: port)
    _ = try await Self.get("/made/up/path/\(UUID().uuidString)", port: port)

    let answer = try await Self.get("/metrics", port: port)
    let samples = Self.prometheusSamples(in: answer)

    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    #expect(
      samples[#"app_http_requests_total{route="POST /oauth/token",status="401"}"#]
        == Double(statuses.count - 1))
    #expect(samples[#"app_http_requests_total{route="POST /oauth/token",status="429"}"#] == 1)
    #expect(samples[#"app_http_requests_total{route="other",status="404"}"#] == 1)
    #expect(samples["app_sign_ins_throttled_total"] == 1)
    #expect(samples["app_password_hashing_waiting"] == 0)
    #expect((samples["app_database_statement_duration_seconds_count"] ?? 0) > 0)
    #expect(
      samples[#"app_http_request_duration_seconds_count{route="POST /oauth/token"}"#]
        == Double(statuses.count))
    #expect(!answer.contains("made/up"), "a stranger's path never becomes a label")
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }

  @Test func aMethodThePathDoesNotTake_is405_withAllow_belowTheServedPrefix() async throws {
    let server = try await InProcessServer.start(pathPrefix: ["api", "v1"])
    defer { server.cancel() }

    let wrongMethod = try await Self.get("/api/v1/oauth/token", port: server.port)
    let outsideThePrefix = try await Self.get("/oauth/token", port: server.port)

    #expect(wrongMethod.hasPrefix("HTTP/1.1 405"), "\(wrongMethod)")
    #expect(Self.header("allow", in: wrongMethod) == "POST")
    #expect(wrongMethod.contains(#""error":"method_not_allowed""#))
    #expect(outsideThePrefix.hasPrefix("HTTP/1.1 404"), "\(outsideThePrefix)")
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }

  // MARK: - Helpers

  /// `name{labels} value` lines of Prometheus's text format, comments left out.
  private static func prometheusSamples(in answer: String) -> [String: Double] {
    let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined()
    var samples: [String: Double] = [:]
    for line in body.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "),
        let value = Double(line[line.index(after: space)...])
      else { continue }
      samples[String(line[..<space])] = value
    }
    return samples
  }

  private static func get(_ path: String, port: Int, headers: String = "") async throws -> String {
    let connection = try RawHTTPConnection(port: port)
    try await connection.send(
      "GET \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\(headers)\r\n")
    return await connection.readUntilClosed(limit: 15).text
  }

  private static func header(_ name: String, in answer: String) -> String? {
    answer.components(separatedBy: "\r\n").lazy
      .compactMap { line -> String? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == name else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
      }.first
  }

  private static func signIn(port: Int) async throws -> String {
    let body = #"{"grant_type":"password","username":"demo","password":"demo-password"}"#
    let connection = try RawHTTPConnection(port: port)
    try await connection.send(
      "POST /oauth/token HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    let answer = await connection.readUntilClosed(limit: 30).text
    let json = try #require(answer.components(separatedBy: "\r\n\r\n").last)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(answer)")
    return try #require(document["access_token"] as? String)
  }
}

/// Wrong passwords for demo, one connection each, until one is answered 429 (ten at
/// most): the statuses, and the last answer whole.
///
/// Not exactly seven: the seventh is throttled only when it is checked within a second of
/// the sixth's failure being counted. Between the two come a synced commit, the answer and
/// a new connection, and in a stress run of the whole suite that took more than a second
/// (the test took 8.7 s where it takes 0.2 s alone). Each further failure doubles the wait
/// (2, 4, 8 s), so a guess is throttled within ten. The exact sequence, seventh included,
/// is held on a test clock in SignInThrottleRoutesTests.
private func guessUntilThrottled(port: Int) async throws -> ([String], String) {
  let wrong = #"{"grant_type":"password","username":"demo","password":"wrong-password"}"#
  var statuses: [String] = []
  var last = ""
  while statuses.last != "HTTP/1.1 429", statuses.count < 10 {
    let connection = try RawHTTPConnection(port: port)
    try await connection.send(
      "POST /oauth/token HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(wrong.utf8.count)\r\n\r\n"
        + wrong)
    last = await connection.readUntilClosed(limit: 30).text
    statuses.append(String(last.prefix(12)))
  }
  return (statuses, last)
}
