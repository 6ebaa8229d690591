import Foundation
import TestSupport
import Testing

@testable import App

/// `app serve` as a person runs it: a process of its own that prints its URL, logs each
/// request, reports a port in use, and stops gracefully on SIGTERM and on Ctrl-C. What it
/// serves to several devices is `ServedDevicesEndToEndTests`, on the application in process.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: Keyring.shouldTest, "needs a Secret Service (CI=true makes this a failure)"))
struct ServeEndToEndTests {
  @Test func theAccessLog_namesEachRequest_neverAPasswordOrAToken() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"])
    defer { server.cancel() }
    let device = try AppRunner.inProcess(
      CompositionSeams(sessionStore: InMemoryUserSessionDataStore()))
    defer { device.remove() }
    try await signIn(device, ["--api-url", server.url])
    _ = try await device.run(["messages", "--api-url", server.url])

    let stopped = try await server.stop()

    #expect(stopped.status == 0)
    #expect(stopped.stdout == server.url + "\n")
    #expect(stopped.stderr.contains("info serve: POST /oauth/token 200 "))
    #expect(stopped.stderr.contains("info serve: GET /messages 200 "))
    #expect(stopped.stderr.hasSuffix("Stopped: every request in flight was answered.\n"))
    #expect(!stopped.stderr.contains("demo-password"))
    #expect(!stopped.stderr.contains("Bearer"))
  }

  @Test func aPortInUse_isAClearFailure_andABadPortAUsageError() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"])
    defer { server.cancel() }
    let port = try #require(server.url.split(separator: ":").last.map(String.init))

    let taken = try await app.run(["serve", "--port", port, "--data-dir", app.scratch.path + "/b"])
    let bad = try await app.run(["serve", "--port", "70000"])

    #expect(taken.status == 1)
    #expect(taken.stderr.contains("error: Cannot serve:"), "\(taken.stderr)")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--port must be between 0 and 65535."))
    _ = try await server.stop()
  }

  @Test func ctrlC_stopsGracefully_andExits130() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"], stopSignal: SIGINT)
    defer { server.cancel() }

    let stopped = try await server.stop()

    #expect(stopped.signal == nil && stopped.status == 130, "\(stopped.stderr)")
    #expect(stopped.stderr.hasSuffix("Stopped: every request in flight was answered.\n"))
  }

  private func signIn(_ runner: AppRunner, _ arguments: [String]) async throws {
    let result = try await runner.run(
      ["login", "--username", "demo", "--password-stdin"] + arguments, stdin: "demo-password")
    #expect(result.status == 0, "signing in failed: \(result.stderr)")
  }
}
