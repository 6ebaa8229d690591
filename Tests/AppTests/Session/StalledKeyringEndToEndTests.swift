import Foundation
import TestSupport
import Testing

/// A keyring daemon that stops answering fails the one app that uses it: each runner has a
/// session bus and daemon of its own (`PrivateSessionBus`), where the suite once had one
/// daemon whose 20-second stall failed every test signed in at the time.
@Suite(
  .timeLimit(.minutes(1)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct StalledKeyringEndToEndTests {
  @Test func aFrozenKeyring_failsItsOwnApp_inTime_andNotTheOthers() async throws {
    let frozen = try AppRunner()
    defer { frozen.remove() }
    let other = try AppRunner()
    defer { other.remove() }
    try await frozen.signInDemoEmbedded()
    try await other.signInDemoEmbedded()
    let bus = try #require(frozen.keyring.bus)

    // Alive, holding its name on the bus, answering nothing.
    #expect(bus.signalTheKeyring(SIGSTOP) == 1, "one daemon, started by the sign-in")
    defer { bus.signalTheKeyring(SIGCONT) }
    async let stalled = frozen.run(["session"])
    let answered = try await other.run(["session"])
    let failed = try await stalled

    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout.contains("Token: kept in the Secret Service"), "\(answered.stdout)")
    #expect(failed.status == 1, "\(failed.stdout)")
    #expect(
      failed.stderr.contains("error: The Secret Service did not answer within 10 s"),
      "\(failed.stderr)")
    #expect(failed.seconds < 30, "the app gave up in its own time")
  }
}
