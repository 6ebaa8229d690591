import Backend
import Foundation
import TestSupport
import Testing

@testable import App

/// The push toggle against the embedded backend, in process. The 3 s wait after each session
/// runs on an `InstantClock` here; the rule itself is tested on a TestClock in DomainTests,
/// and on the real clock over HTTP in PushPartialFailureEndToEndTests.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct PushEndToEndTests {
  @Test func statusOnOffToggle() async throws {
    let clock = InstantClock()
    let app = try AppRunner.inProcess(CompositionSeams(clock: clock))
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let before = try await app.run(["push", "status"])
    let on = try await app.run(["push", "on", "--allow-notifications"])
    let after = try await app.run(["push", "status", "--json"])
    let toggled = try await app.run(["push", "toggle"])

    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout == "Push notifications are off.\n")
    #expect(before.stderr.isEmpty, "progress lines only at a terminal: \(before.stderr)")
    #expect(clock.now >= .init(offset: .seconds(3)), "the 3 s wait, taken on the clock")
    #expect(on.status == 0, "\(on.stderr)")
    #expect(on.stdout == "Push notifications are on.\n")
    let document = try LikesEndToEndTests.json(after.stdout)
    #expect(document["registered"] as? Bool == true)
    #expect(toggled.stdout == "Push notifications are off.\n")
    _ = try await app.run(["logout"])
  }

  /// The embedded backend answers every URL in process; a vendor named by `--vendor-url` is
  /// still reached over the network, so a vendor that is down is a failure, not "off".
  @Test func aVendorURLBesideTheEmbeddedBackend_isReachedOverHTTP() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let port = try await LoopbackHTTPServer.closedPort()

    let result = try await app.run([
      "push", "status", "--allow-notifications", "--vendor-url", "http://127.0.0.1:\(port)",
    ])

    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.contains("could not connect to 127.0.0.1:\(port)"), "\(result.stderr)")
    _ = try await app.run(["logout"])
  }

  @Test func aRefusedVendorCall_leavesNothingRegistered() async throws {
    let app = try AppRunner.inProcess(CompositionSeams(clock: InstantClock()))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let refusing: [String: String?] = ["APP_EMBEDDED_PUSH_FAULTS": "vendor/register=refuse"]

    let on = try await app.run(["push", "on", "--allow-notifications"], environment: refusing)
    let status = try await app.run(["push", "status", "--json"])

    #expect(on.status == 1)
    #expect(
      on.stderr.contains(
        "error: Registration did not complete: the vendor backend refused. The push backend's change was undone, so both agree again."
      ))
    let document = try LikesEndToEndTests.json(status.stdout)
    #expect(document["registered"] as? Bool == false)
    #expect(
      document["registeredElsewhere"] as? Bool == false,
      "the push backend's registration was undone too")
    _ = try await app.run(["logout"])
  }

  @Test func anotherDevice_isShown_andMovingNeedsYes() async throws {
    let app = try AppRunner.inProcess(CompositionSeams(clock: InstantClock()))
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let other: [String: String?] = ["APP_DEVICE_ID": "e2e-other-device"]
    let first = try await app.run(["push", "on", "--allow-notifications"])

    let seen = try await app.run(["push", "status"], environment: other)
    let refused = try await app.run(["push", "on", "--allow-notifications"], environment: other)
    let moved = try await app.run(
      ["push", "on", "--allow-notifications", "--yes"], environment: other)
    let original = try await app.run(["push", "status"])

    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      seen.stdout == "Push notifications are off.\nRegistered on another device\n",
      "status \(seen.status): \(seen.stderr)")
    #expect(refused.status == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("turning them on here moves them to this one"))
    #expect(refused.stderr.contains("--yes"))
    #expect(moved.status == 0, "\(moved.stderr)")
    #expect(moved.stdout.hasPrefix("Push notifications are on."))
    #expect(
      original.stdout.contains("Registered on another device"),
      "status \(original.status): \(original.stderr)")
    _ = try await app.run(["logout"])
  }

  @Test func withoutPermission_itExplains_andSignedOutIsExit4() async throws {
    let app = try AppRunner.inProcess(CompositionSeams(clock: InstantClock()))
    defer { app.remove() }

    let signedOut = try await app.run(["push", "status"])
    try await app.signInDemoEmbedded()
    let denied = try await app.run(["push", "on"])
    let deniedAgain = try await app.run(["push", "on"])
    let allowed = try await app.run(["push", "on", "--allow-notifications"])

    #expect(signedOut.status == 4)
    #expect(denied.status == 1)
    #expect(denied.stderr.contains("error: Notifications are not allowed on this device"))
    #expect(denied.stderr.contains("hint: Run again with --allow-notifications"))
    #expect(deniedAgain.status == 1, "the refusal is remembered")
    #expect(deniedAgain.stderr.contains("hint: Run again with --allow-notifications"))
    #expect(allowed.status == 0, "and can be given after all: \(allowed.stderr)")
    #expect(allowed.stdout == "Push notifications are on.\n")
    _ = try await app.run(["logout"])
  }
}
