import Foundation
import TestSupport
import Testing

@testable import App

/// `app serve` as a person runs it: a process of its own that prints its URL, serves
/// several devices at once, logs each request, and stops gracefully on SIGTERM.
///
/// Two devices are two data folders and two keyrings: device A is the binary in the suite's
/// keyring, device B runs in process with a session store of its own.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: Keyring.shouldTest, "needs a Secret Service (CI=true makes this a failure)"))
struct ServeEndToEndTests {
  @Test func pushOnOneDevice_isAnotherDevice_onTheOther() async throws {
    let (app, server, deviceA, deviceB) = try await twoSignedInDevices()
    defer {
      server.cancel()
      app.remove()
      deviceB.remove()
    }

    let on = try await app.run(["push", "on", "--allow-notifications"] + deviceA)
    let other = try await deviceB.run(["push", "status", "--api-url", server.url])

    #expect(on.stdout == "Push notifications are on.\n", "\(on.stderr)")
    #expect(other.status == 0, "\(other.stderr)")
    #expect(other.stdout.contains("another device"), "\(other.stdout)")
    let stopped = try await server.stop()
    #expect(stopped.status == 0, "SIGTERM is a clean stop: \(stopped.stderr)")
  }

  @Test func aLikeBackOnOneDevice_isAMatchInTheOthersWatch() async throws {
    let (app, server, deviceA, deviceB) = try await twoSignedInDevices()
    defer {
      server.cancel()
      app.remove()
      deviceB.remove()
    }
    let page = try LikesEndToEndTests.json(
      try await deviceB.run(["likes", "--json", "--api-url", server.url]).stdout)
    let id = try #require((page["items"] as? [[String: Any]])?.first?["id"] as? String)

    async let watched = app.run(["likes", "watch", "--for", "15s"] + deviceA, sharesASlot: false)
    // The watch's second poll resumes after everything so far, so a like from then on
    // cannot be missed: the server's access log shows when it started.
    try await waitUntil("device A's watch polls /events a second time", within: .seconds(14)) {
      server.log.components(separatedBy: "GET /events").count > 2
    }
    let liked = try await deviceB.run(["likes", "like", id, "--api-url", server.url])
    let watch = try await watched

    #expect(liked.stdout.hasPrefix("🎉 It's a match with "), "\(liked.stderr)")
    #expect(watch.stdout.contains("🎉 It's a match with "), "\(watch.stdout)")
    _ = try await server.stop()
  }

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

  /// `app serve` with device A (the binary; its options in `deviceA`) and device B (in
  /// process, with a keyring of its own) both signed in to it as demo.
  private func twoSignedInDevices() async throws -> (
    app: AppRunner, server: ServeProcess, deviceA: [String], deviceB: AppRunner
  ) {
    let app = try AppRunner()
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"])
    let deviceA = ["--api-url", server.url, "--data-dir", app.scratch.path + "/a"]
    let deviceB = try AppRunner.inProcess(
      CompositionSeams(sessionStore: InMemoryUserSessionDataStore()))
    try await signIn(app, deviceA)
    try await signIn(deviceB, ["--api-url", server.url])
    return (app, server, deviceA, deviceB)
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
