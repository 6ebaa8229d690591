import Foundation
import TestSupport
import Testing

@testable import Keyring

/// The questions over the real session bus of the run (scripts/with-keyring: dbus-daemon, or
/// dbus-broker with `--bus dbus-broker`), through sd-bus. Under CI=true a missing bus fails
/// these tests instead of skipping them.
@Suite(
  .timeLimit(.minutes(1)),
  .enabled(if: TestKeyring.shouldTest, "no Secret Service reachable (CI=true makes this a failure)")
)
struct SecretServiceQuestionsTests {
  @Test func theSecretService_answersOnTheBus() throws {
    try withConnection { connection, deadline in
      let answers = try SecretServiceQuestions.serviceAnswers(on: connection, deadline: deadline)
      #expect(answers)
    }
  }

  @Test func accountsOfUnlockedItems_areReadWithoutLibsecret() async throws {
    let keyring = SecretServiceKeyring(timeout: .seconds(10))
    let service = "keyring-tests-\(UUID().uuidString)"
    let item = SecretServiceKeyring.Attributes(service: service, server: "s", account: "ana")
    try await keyring.store(item, label: "keyring test", secret: "token")
    defer { Task { try? await keyring.clear(item) } }

    let pattern = SecretServiceKeyring.Attributes(service: service, server: "s", account: nil)
    let found = try await keyring.unlockedAccounts(pattern)

    #expect(found == .init(accounts: ["ana"], lockedCount: 0))
    #expect(try await keyring.search(pattern) == [.init(account: "ana")])
    try await keyring.clear(item)
    #expect(try await keyring.unlockedAccounts(pattern) == .init(accounts: [], lockedCount: 0))
  }

  /// scripts/with-keyring names the bus it started (`WITH_KEYRING_BUS`): the questions above
  /// were asked of that one, whose process owns the bus's own name.
  @Test func theBus_isTheOneTheRunStarted() throws {
    guard let expected = ProcessInfo.processInfo.environment["WITH_KEYRING_BUS"] else {
      #expect(!TestKeyring.isCI, "CI runs the suite under scripts/with-keyring")
      return
    }
    try withConnection { connection, deadline in
      let reply = try connection.call(
        SessionBusCall(
          destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
          interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
          arguments: { try $0.string("org.freedesktop.DBus") }),
        deadline: deadline)
      let process = try reply.unsignedInteger()
      // The kernel keeps 15 characters of a name: dbus-broker-launch is "dbus-broker-lau".
      let name = try String(contentsOfFile: "/proc/\(process)/comm", encoding: .utf8)
      #expect(name.hasPrefix(String(expected.prefix(11))), "the bus is \(name)")
    }
  }

  @Test func anErrorReply_isThrownWithItsNameAndText() throws {
    try withConnection { connection, deadline in
      let error = #expect(throws: SessionBusError.self) {
        try connection.call(
          SessionBusCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "NoSuchMethod"),
          deadline: deadline)
      }
      #expect(error?.reason.hasPrefix("org.freedesktop.DBus.Error.UnknownMethod") == true)
    }
  }

  /// The reply's signature is checked at every read: an `as` read as a boolean is refused,
  /// where a reader of raw bytes would have read whatever was there.
  @Test func aReplyOfAnotherShape_isMalformed() throws {
    try withConnection { connection, deadline in
      let reply = try connection.call(
        SessionBusCall(
          destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
          interface: "org.freedesktop.DBus", member: "ListNames"),
        deadline: deadline)
      #expect(reply.signature == "as")
      #expect(throws: SessionBusError.malformed("a boolean in (as)")) { try reply.boolean() }
    }
  }

  private func withConnection(
    _ body: (SessionBusConnection, SessionBusDeadline) throws -> Void
  ) throws {
    let deadline = SessionBusDeadline(instant: .now + .seconds(10), cancel: try BusCancellation())
    try body(try SessionBusConnection(deadline: deadline), deadline)
  }
}
