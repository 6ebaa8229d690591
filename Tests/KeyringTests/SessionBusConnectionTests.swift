import Foundation
import TestSupport
import Testing

@testable import Keyring

/// The sd-bus connection on which the app asks its questions before it needs libsecret:
/// every wait ends at its deadline or when the call is cancelled, and a bus that is missing,
/// silent or answering with an error says so in words.
@Suite(.timeLimit(.minutes(1))) struct SessionBusConnectionTests {
  /// A bus that accepts the connection and never answers: cancelling the call from another
  /// thread ends it at once, with no time limit waited out.
  @Test func aBusThatNeverAnswers_isLeftWhenTheCallIsCancelled() async throws {
    let bus = try SilentUnixSocket(named: "bus")
    defer { bus.remove() }
    let address = "unix:path=\(bus.path)"
    let cancel = try BusCancellation()

    let attempt = Task.detached {
      Result {
        try SessionBusConnection(
          address: address,
          deadline: SessionBusDeadline(instant: .now + .seconds(600), cancel: cancel))
      }
    }
    cancel.cancel()
    let result = await attempt.value

    #expect(throws: SessionBusError.cancelled) { try result.get() }
  }

  @Test func aDeadlineAlreadyPassed_endsTheCallAtOnce() throws {
    let bus = try SilentUnixSocket(named: "bus")
    defer { bus.remove() }

    #expect(throws: SessionBusError.timedOut) {
      try SessionBusConnection(
        address: "unix:path=\(bus.path)",
        deadline: SessionBusDeadline(instant: .now - .seconds(1), cancel: BusCancellation()))
    }
  }

  @Test func noBusThere_isSaidInWords() throws {
    let error = #expect(throws: SessionBusError.self) {
      try SessionBusConnection(
        address: "unix:path=/nonexistent/bus",
        deadline: SessionBusDeadline(instant: .now + .seconds(5), cancel: BusCancellation()))
    }
    #expect(error?.reason == "could not connect to the session bus: No such file or directory")
  }

  @Test func anAddressSdBusCannotRead_isRefusedBeforeConnecting() throws {
    let error = #expect(throws: SessionBusError.self) {
      try SessionBusConnection(
        address: "carrier-pigeon:",
        deadline: SessionBusDeadline(instant: .now + .seconds(5), cancel: BusCancellation()))
    }
    #expect(error?.reason.hasPrefix("could not connect to the session bus") == true)
  }
}
