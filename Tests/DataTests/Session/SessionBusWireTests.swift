import Foundation
import TestSupport
import Testing

@testable import Data

/// The app's own session-bus client (`SessionBusConnection`): the addresses it connects to
/// itself, the messages it writes and reads, and a bus that never answers.
@Suite(.timeLimit(.minutes(1))) struct SessionBusWireTests {
  @Test(arguments: [
    ("unix:path=/run/user/1000/bus", SessionBusAddress.path("/run/user/1000/bus")),
    ("unix:abstract=/tmp/dbus-AbC,guid=0123", .abstract("/tmp/dbus-AbC")),
    ("tcp:host=localhost,port=1;unix:path=/tmp/a%20b", .path("/tmp/a b")),
    ("unix:guid=1,path=/tmp/bus", .path("/tmp/bus")),
  ])
  func aUnixSocketAddress_isConnectedToDirectly(text: String, expected: SessionBusAddress) {
    #expect(SessionBusAddress.parse(text) == expected)
  }

  @Test(arguments: ["", "tcp:host=localhost,port=1", "unix:tmpdir=/tmp", "launchd:env=X"])
  func anyOtherAddress_isLeftToGDBus(text: String) {
    #expect(SessionBusAddress.parse(text) == nil)
  }

  /// The bytes of a `SearchItems` call as the D-Bus specification lays them out, read back.
  @Test func aMethodCall_isWrittenAsTheSpecificationSays() throws {
    var body = DBusWriter()
    body.stringDictionary([("service", "app"), ("server", "s")])
    let call = DBusMessage.Call(
      destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
      interface: "org.freedesktop.Secret.Service", member: "SearchItems", signature: "a{ss}",
      body: body.bytes)

    let bytes = DBusMessage.bytes(of: call, serial: 7)

    #expect(Array(bytes.prefix(4)) == [UInt8(ascii: "l"), 1, 0, 1])
    #expect(Array(bytes[4..<8]) == [UInt8(body.bytes.count), 0, 0, 0], "the body's length")
    #expect(Array(bytes[8..<12]) == [7, 0, 0, 0], "the serial")
    #expect(try DBusMessage.Received.length(ofMessageStarting: bytes[...]) == bytes.count)
    let read = try DBusMessage.Received(bytes)
    #expect(read.kind == .methodCall)
    #expect(read.signature == "a{ss}")
    var dictionary = read.body
    #expect(try dictionary.stringDictionary() == ["service": "app", "server": "s"])
  }

  /// A reply in big-endian order (the sender's choice), answering serial 2 with `(aoao)`.
  @Test func aBigEndianReply_isRead() throws {
    var fields: [UInt8] = []
    fields += [5, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 2]  // REPLY_SERIAL 2
    fields += [8, 1, UInt8(ascii: "g"), 0, 4] + Array("aoao".utf8) + [0]  // SIGNATURE
    var body: [UInt8] = [0, 0, 0, 10, 0, 0, 0, 5] + Array("/a/b1".utf8) + [0]  // ao: one path
    body += [0, 0, 0, 0, 0, 0, 0, 0]  // pad to 4, then an empty ao
    var message: [UInt8] = [UInt8(ascii: "B"), 2, 0, 1]
    message += [0, 0, 0, UInt8(body.count), 0, 0, 0, 9, 0, 0, 0, UInt8(fields.count)]
    message += fields
    while message.count % 8 != 0 { message.append(0) }
    message += body

    let read = try DBusMessage.Received(message)

    #expect(read.kind == .methodReturn)
    #expect(read.replySerial == 2)
    #expect(read.signature == "aoao")
    var paths = read.body
    #expect(try paths.strings() == ["/a/b1"])
    #expect(try paths.strings() == [])
  }

  @Test func aMessageCutShort_isRefused() throws {
    var body = DBusWriter()
    body.string("org.freedesktop.secrets")
    let bytes = DBusMessage.bytes(
      of: DBusMessage.Call(
        destination: "d", path: "/p", interface: "i", member: "m", signature: "s",
        body: body.bytes), serial: 1)
    var cut = try DBusMessage.Received(Array(bytes.dropLast(4))).body
    #expect(throws: DBusWireError.self) { try cut.string() }
  }

  /// A bus that accepts the connection and never answers: cancelling the call from another
  /// thread ends it at once, with no time limit waited out.
  @Test func aBusThatNeverAnswers_isLeftWhenTheCallIsCancelled() async throws {
    let bus = try SilentUnixSocket(named: "bus")
    defer { bus.remove() }
    let path = bus.path
    let cancel = try WireCancellation()

    let attempt = Task.detached {
      Result {
        try SessionBusConnection(
          address: .path(path), deadline: .now + .seconds(600), cancel: cancel)
      }
    }
    cancel.cancel()
    let result = await attempt.value

    #expect(throws: SessionBusError.cancelled) { try result.get() }
  }

  @Test func aDeadlineAlreadyPassed_endsTheCallAtOnce() throws {
    let bus = try SilentUnixSocket(named: "bus")
    defer { bus.remove() }
    let path = bus.path

    #expect(throws: SessionBusError.timedOut) {
      try SessionBusConnection(
        address: .path(path), deadline: .now - .seconds(1), cancel: WireCancellation())
    }
  }

  @Test func noBusThere_isSaidWithItsAddress() throws {
    let error = #expect(throws: SessionBusError.self) {
      try SessionBusConnection(
        address: .path("/nonexistent/bus"), deadline: .now + .seconds(5),
        cancel: WireCancellation())
    }
    #expect(
      error?.reason
        == "could not connect to the session bus at /nonexistent/bus: No such file or directory")
  }
}
