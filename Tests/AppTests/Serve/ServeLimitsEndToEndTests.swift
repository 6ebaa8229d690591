import Foundation
import TestSupport
import Testing

/// `app serve` facing strangers: a body over its route's limit is answered `413
/// body_too_large` from its headers alone, and the connection closed, without the body being
/// read; a guessed password is throttled per account with `429` and `Retry-After`.
@Suite(.timeLimit(.minutes(3))) struct ServeLimitsEndToEndTests {
  @Test func aBodyOverTheLimit_is413_beforeItIsSent_andTheConnectionCloses() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(in: app, ["--message-limit", "1"])
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
  }

  @Test func everyOtherRoute_takes64KiB() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(in: app)
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
  }

  @Test func wrongPasswords_getA429WithRetryAfter_overRealHTTP() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(in: app)
    defer { server.cancel() }
    let port = try #require(URL(string: server.url)?.port)
    let body = #"{"grant_type":"password","username":"demo","password":"wrong-password"}"#

    var statuses: [String] = []
    var last = ""
    for _ in 1...7 {
      let connection = try RawHTTPConnection(port: port)
      try await connection.send(
        "POST /oauth/token HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
          + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
      last = await connection.readUntilClosed(limit: 30).text
      statuses.append(String(last.prefix(12)))
    }

    #expect(statuses == Array(repeating: "HTTP/1.1 401", count: 6) + ["HTTP/1.1 429"])
    #expect(last.lowercased().contains("retry-after: 1\r\n"), "\(last)")
    #expect(last.contains(#""error":"too_many_attempts""#))
  }
}
