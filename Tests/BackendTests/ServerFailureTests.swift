import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Backend
@testable import BackendServer

/// A failure no route expected, as a server answers it to a stranger: a `500` that names the
/// request and nothing of the server's own (its files, its SQL), and an `error` line in the
/// operator's log that says what failed, on one line.
@Suite(.timeLimit(.minutes(1))) struct ServerFailureTests {
  @Test func aClient_isToldTheRequest_andTheLogWhatFailed() async throws {
    let lines = Mutex<[String]>([])
    let log = AccessLog(
      format: .text, now: { Date(timeIntervalSince1970: 0) },
      write: { line in lines.withLock { $0.append(line) } })
    let server = try await BackendHTTPServer.start(.init(accessLog: { log.request($0) })) { _ in
      .serverFailure(StoreFailure())
    }
    defer { server.triggerStop() }
    let connection = try RawHTTPConnection(port: server.port)
    try await connection.send(
      "POST /messages HTTP/1.1\r\nHost: test\r\nX-Request-ID: trace-500\r\n"
        + "Content-Length: 0\r\nConnection: close\r\n\r\n")
    let (answer, _) = await connection.readUntilClosed(limit: 10)
    await server.stop()

    #expect(answer.hasPrefix("HTTP/1.1 500"), "\(answer)")
    #expect(
      answer.hasSuffix(
        #"{"error":"server_error","error_description":"The server failed to answer this request; its log names why under request trace-500"}"#
      ), "\(answer)")
    #expect(!answer.contains("SQLite") && !answer.contains("/srv/"), "\(answer)")
    let logged = lines.withLock { $0 }
    try #require(logged.count == 1, "\(logged)")
    let line = logged[0]
    #expect(line.hasPrefix("1970-01-01T00:00:00Z error serve: POST /messages 500 "), "\(line)")
    let failure =
      " ms request=trace-500: The backend failed: SQLite error 13: database or disk is full "
      + "- while executing `INSERT INTO message` (/srv/app/embedded-backend.sqlite)\n"
    #expect(line.hasSuffix(failure), "one line, its break a space: \(line)")
  }

  @Test func asJSONLines_theFailureIsAMemberOfAnErrorLine() throws {
    let lines = Mutex<[String]>([])
    let log = AccessLog(
      format: .json, now: { Date(timeIntervalSince1970: 0) },
      write: { line in lines.withLock { $0.append(line) } })
    log.request(
      AccessLogEntry(
        requestID: "r1", method: "GET", path: "/me", operation: nil, status: 500,
        milliseconds: 1.25, failure: "first\r\nsecond\u{1B}[2J"))
    log.request(
      AccessLogEntry(
        requestID: "r2", method: "GET", path: "/me", operation: nil, status: 200,
        milliseconds: 1.25))

    let objects = try lines.withLock { $0 }.map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
    try #require(objects.count == 2)
    #expect(objects[0]["level"] as? String == "error")
    #expect(objects[0]["failure"] as? String == "first second [2J")
    #expect(objects[1]["level"] as? String == "info")
    #expect(objects[1]["failure"] == nil)
  }

  /// A store's failure whose words hold what a stranger should not read, across lines.
  private struct StoreFailure: DiagnosedFailure, CustomStringConvertible {
    let description =
      "SQLite error 13: database or disk is full\n- while executing `INSERT INTO message`"
    let diagnosis: String? = "/srv/app/embedded-backend.sqlite"
  }
}
