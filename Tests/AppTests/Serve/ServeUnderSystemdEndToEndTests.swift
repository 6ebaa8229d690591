import Foundation
import TestSupport
import Testing

/// `app serve` as systemd runs a `Type=notify` service: the test binds the notify socket
/// itself and reads what the server tells it, over the server's whole life.
@Suite(.timeLimit(.minutes(3))) struct ServeUnderSystemdEndToEndTests {
  @Test func readyOnceItServes_watchdogWhileItRuns_stoppingAtSIGTERM() async throws {
    let socket = try NotifySocket()
    defer { socket.close() }
    let app = try AppRunner()
    defer { app.remove() }

    // WatchdogSec=0.4: a ping at least every 200 ms.
    let server = try await ServeProcess.start(
      in: app, environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"])
    defer { server.cancel() }
    try await waitUntil("READY=1 arrives", within: .seconds(30)) {
      socket.lines.contains("READY=1")
    }
    #expect(socket.lines.contains("STATUS=Serving on \(server.url)"), "\(socket.lines)")
    #expect(!socket.lines.contains("STOPPING=1"))
    // The backend answers by the time it says it is ready.
    #expect(try await Self.healthCheck(server).hasPrefix("HTTP/1.1 200"))
    try await waitUntil("the watchdog is fed twice", within: .seconds(30)) {
      socket.lines.filter { $0 == "WATCHDOG=1" }.count >= 2
    }

    let result = try await server.stop(with: SIGTERM)

    #expect(result.status == 0, "\(result.stderr)")
    let lines = socket.lines
    let ready = try #require(lines.firstIndex(of: "READY=1"))
    let stopping = try #require(lines.firstIndex(of: "STOPPING=1"), "\(lines)")
    #expect(ready < stopping)
    #expect(lines.filter { $0 == "STOPPING=1" }.count == 1)
    #expect(result.stderr.contains("Stopped: every request in flight was answered."))
  }

  @Test func withoutASocket_SIGTERMStillStopsItGracefully() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(in: app)

    let result = try await server.stop(with: SIGTERM)

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Stopped: every request in flight was answered."))
  }

  /// What a unit's EnvironmentFile sets reaches the server as its flags would.
  @Test func theEnvironment_configuresTheServer() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, environment: ["APP_LOG_FORMAT": "json", "APP_MESSAGE_LIMIT": "1"])
    defer { server.cancel() }
    _ = try await Self.healthCheck(server)
    try await waitUntil("the request is logged", within: .seconds(30)) {
      server.log.contains("\"path\":\"/healthz\"")
    }

    let result = try await server.stop(with: SIGTERM)

    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n")
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.hasPrefix("{") }, "every line is JSON: \(result.stderr)")
  }

  /// `GET /healthz` over a socket of its own; the answer as received.
  private static func healthCheck(_ server: ServeProcess) async throws -> String {
    let port = try #require(server.url.split(separator: ":").last.flatMap { Int($0) })
    let connection = try RawHTTPConnection(port: port)
    try await connection.send("GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
    return await connection.readUntilClosed(limit: 30).text
  }
}
