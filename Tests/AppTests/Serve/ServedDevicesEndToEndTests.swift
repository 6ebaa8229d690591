import Foundation
import TestSupport
import Testing

@testable import App

/// Several devices on one served backend: what one device does, the other sees. The server
/// is the application `app serve` builds, in the test's process on a free port; the devices
/// are `app` as people run it.
///
/// Two devices are two data folders and two keyrings: device A is the binary in the suite's
/// keyring, device B runs in process with a session store of its own.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ServedDevicesEndToEndTests {
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
    try await server.stop()
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
      server.accessLog.components(separatedBy: "GET /events").count > 2
    }
    let liked = try await deviceB.run(["likes", "like", id, "--api-url", server.url])
    let watch = try await watched

    #expect(liked.stdout.hasPrefix("🎉 It's a match with "), "\(liked.stderr)")
    #expect(watch.stdout.contains("🎉 It's a match with "), "\(watch.stdout)")
    try await server.stop()
  }

  /// The served application with device A (the binary; its options in `deviceA`) and
  /// device B (in process, with a keyring of its own) both signed in to it as demo.
  private func twoSignedInDevices() async throws -> (
    app: AppRunner, server: InProcessServer, deviceA: [String], deviceB: AppRunner
  ) {
    let app = try AppRunner()
    let server = try await InProcessServer.start()
    let deviceA = ["--api-url", server.url, "--data-dir", app.scratch.path + "/a"]
    let deviceB = try AppRunner.inProcess(
      CompositionSeams(sessionStore: InMemoryUserSessionDataStore()))
    try await signIn(app, deviceA)
    try await signIn(deviceB, ["--api-url", server.url])
    return (app, server, deviceA, deviceB)
  }

  private func signIn(_ runner: AppRunner, _ arguments: [String]) async throws {
    let result = try await runner.run(
      ["login", "--username", "demo", "--password-stdin"] + arguments, stdin: "demo-password")
    #expect(result.status == 0, "signing in failed: \(result.stderr)")
  }
}
