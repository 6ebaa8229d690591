import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A connection to the session bus made by the app itself over its Unix socket, for the
/// questions a command asks before it knows whether it needs libsecret: whether a Secret
/// Service answers, and who is signed in. Those are plain method calls with no secret in
/// them, and asked this way they need neither libsecret nor GLib loaded (a dozen libraries,
/// 3 to 5 ms of a cached page's start) nor GDBus's worker thread between the caller and the
/// socket (docs/decisions/, "Who is signed in is asked over the bus socket itself").
///
/// Blocking, and used by one call at a time (`SessionBus`); every wait is bounded by the
/// call's deadline and ends early when the call is cancelled (`WireCancellation`).
final class SessionBusConnection {
  private let socket: Int32
  private var serial: UInt32 = 0
  private var received: [UInt8] = []

  /// Connects to `address` and authenticates as this process's user (SASL `EXTERNAL`, the
  /// credentials the kernel passes with the socket), then says `Hello` to the bus.
  init(address: SessionBusAddress, deadline: ContinuousClock.Instant, cancel: WireCancellation)
    throws
  {
    socket = try Self.connect(to: address)
    do {
      let uid = Array(String(getuid()).utf8).map { String(format: "%02x", $0) }.joined()
      try write(Array("\0AUTH EXTERNAL \(uid)\r\n".utf8), deadline: deadline, cancel: cancel)
      let answer = try readLine(deadline: deadline, cancel: cancel)
      guard answer.hasPrefix("OK ") else {
        throw SessionBusError.refused("the session bus did not accept this user (\(answer))")
      }
      // BEGIN and Hello go together: after BEGIN, the bus reads messages.
      serial += 1
      let hello = DBusMessage.Call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "Hello")
      try write(
        Array("BEGIN\r\n".utf8) + DBusMessage.bytes(of: hello, serial: serial),
        deadline: deadline, cancel: cancel)
      _ = try reply(to: serial, deadline: deadline, cancel: cancel)
    } catch {
      close(socket)
      throw error
    }
  }

  deinit { close(socket) }

  /// Sends `call` and waits for its reply, skipping the signals and other replies the bus
  /// sends meanwhile (`NameAcquired` after `Hello`). An error reply is thrown as
  /// `SessionBusError.errorReply`.
  func call(_ call: DBusMessage.Call, deadline: ContinuousClock.Instant, cancel: WireCancellation)
    throws -> DBusMessage.Received
  {
    serial += 1
    try write(DBusMessage.bytes(of: call, serial: serial), deadline: deadline, cancel: cancel)
    return try reply(to: serial, deadline: deadline, cancel: cancel)
  }

  private func reply(
    to serial: UInt32, deadline: ContinuousClock.Instant, cancel: WireCancellation
  ) throws -> DBusMessage.Received {
    while true {
      let message = try DBusMessage.Received(readMessage(deadline: deadline, cancel: cancel))
      guard message.replySerial == serial else { continue }
      switch message.kind {
      case .methodReturn: return message
      case .error: throw SessionBusError.errorReply(message.errorDescription)
      default: throw DBusWireError.malformed("a reply that is neither a return nor an error")
      }
    }
  }

  // MARK: - The socket

  private static func connect(to address: SessionBusAddress) throws -> Int32 {
    let socket = Glibc.socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw SessionBusError.cannotConnect(address, errno) }
    var name = sockaddr_un()
    name.sun_family = sa_family_t(AF_UNIX)
    let path: [UInt8]
    switch address {
    case .path(let file): path = Array(file.utf8)
    case .abstract(let abstract): path = [0] + Array(abstract.utf8)
    }
    let capacity = MemoryLayout.size(ofValue: name.sun_path)
    guard path.count < capacity else {
      close(socket)
      throw SessionBusError.cannotConnect(address, ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &name.sun_path) { $0.copyBytes(from: path) }
    let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + path.count)
    let connected = withUnsafePointer(to: &name) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, length) }
    }
    guard connected == 0 else {
      let failure = errno
      close(socket)
      throw SessionBusError.cannotConnect(address, failure)
    }
    return socket
  }

  private func write(
    _ bytes: [UInt8], deadline: ContinuousClock.Instant, cancel: WireCancellation
  ) throws {
    var sent = 0
    while sent < bytes.count {
      try wait(for: Int16(POLLOUT), deadline: deadline, cancel: cancel)
      let count = bytes.withUnsafeBytes {
        send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        throw SessionBusError.lost(errno)
      }
      sent += count
    }
  }

  private func readLine(deadline: ContinuousClock.Instant, cancel: WireCancellation) throws
    -> String
  {
    while true {
      if let end = received.firstIndex(of: UInt8(ascii: "\n")) {
        let line = received[..<end]
        received.removeSubrange(...end)
        return String(decoding: line, as: UTF8.self)
          .trimmingCharacters(in: .whitespacesAndNewlines)
      }
      guard received.count < 4096 else { throw DBusWireError.malformed("an endless line") }
      try readMore(deadline: deadline, cancel: cancel)
    }
  }

  private func readMessage(deadline: ContinuousClock.Instant, cancel: WireCancellation) throws
    -> [UInt8]
  {
    while true {
      if let length = try DBusMessage.Received.length(ofMessageStarting: received[...]),
        received.count >= length
      {
        let message = Array(received[..<length])
        received.removeSubrange(..<length)
        return message
      }
      try readMore(deadline: deadline, cancel: cancel)
    }
  }

  private func readMore(deadline: ContinuousClock.Instant, cancel: WireCancellation) throws {
    while true {
      try wait(for: Int16(POLLIN), deadline: deadline, cancel: cancel)
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes {
        recv(socket, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT))
      }
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        throw SessionBusError.lost(errno)
      }
      guard count > 0 else { throw SessionBusError.lost(ECONNRESET) }
      received.append(contentsOf: chunk[..<count])
      return
    }
  }

  /// Waits until the socket is ready for `events`, the deadline passes or the call is
  /// cancelled, whichever comes first.
  private func wait(for events: Int16, deadline: ContinuousClock.Instant, cancel: WireCancellation)
    throws
  {
    while true {
      let left = deadline - .now
      guard left > .zero else { throw SessionBusError.timedOut }
      let milliseconds =
        Int32(clamping: left.components.seconds * 1000 + 1)
        + Int32(left.components.attoseconds / 1_000_000_000_000_000)
      var watched = [
        pollfd(fd: socket, events: events, revents: 0),
        pollfd(fd: cancel.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&watched, 2, milliseconds)
      if ready < 0 {
        if errno == EINTR { continue }
        throw SessionBusError.lost(errno)
      }
      if watched[1].revents != 0 { throw SessionBusError.cancelled }
      if watched[0].revents & events != 0 { return }
      if watched[0].revents != 0 { throw SessionBusError.lost(ECONNRESET) }
    }
  }
}

/// Why a question over the bus socket got no answer.
enum SessionBusError: Error, Equatable {
  case cannotConnect(SessionBusAddress, Int32)
  case refused(String)
  case lost(Int32)
  case timedOut
  case cancelled
  /// The bus or the service answered with an error: its name and message.
  case errorReply(String)

  var reason: String {
    switch self {
    case .cannotConnect(let address, let code):
      "could not connect to the session bus at \(address): \(String(cString: strerror(code)))"
    case .refused(let why): why
    case .lost(let code):
      "the session bus connection was lost: \(String(cString: strerror(code)))"
    case .timedOut: "the session bus did not answer in time"
    case .cancelled: "the question was cancelled"
    case .errorReply(let text): text
    }
  }
}

/// How a call over the bus socket is cancelled from another thread: a pipe whose read end
/// every wait watches. The pipe lives as long as anything holds this, so a late `cancel`
/// never writes to a descriptor that was closed and reused.
final class WireCancellation: Sendable {
  let readEnd: Int32
  private let writeEnd: Int32

  init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SessionBusError.lost(errno) }
    readEnd = ends[0]
    writeEnd = ends[1]
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  func cancel() {
    var byte: UInt8 = 1
    _ = Glibc.write(writeEnd, &byte, 1)
  }
}
