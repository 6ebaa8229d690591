internal import CSystemdBus
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A connection to the session bus through sd-bus (`CSystemdBus`), for the questions a
/// command asks before it knows whether it needs libsecret: whether a Secret Service answers,
/// and who is signed in. Plain method calls with no secret in them, so they need neither
/// libsecret nor GLib loaded (a dozen libraries) nor GDBus's worker thread between the caller
/// and the socket (docs/decisions/, "The session-bus questions go through sd-bus").
///
/// sd-bus finds the bus as libdbus and GDBus do, authenticates, says `Hello`, checks every
/// message against the specification and reads replies by their signature. The app drives
/// it from its own poll loop rather than sd-bus's blocking `sd_bus_call`, so that every wait
/// is bounded by the call's deadline and ends early when the call is cancelled
/// (`BusCancellation`). Used by one thread at a time (`SessionBus`): an sd-bus connection is
/// not thread-safe.
final class SessionBusConnection {
  private let library: AppBusLibrary
  private let bus: OpaquePointer

  /// Opens the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`), or the
  /// bus at `address` (a D-Bus address, `unix:path=…`), and waits until it has authenticated
  /// and answered `Hello`.
  init(address: String? = nil, deadline: SessionBusDeadline) throws {
    library = try SystemdBusLibrary.load()
    var opened: OpaquePointer?
    if let address {
      _ = try library.sd_bus_new(&opened).succeeded()
      if let opened {
        let result = Self.start(opened, at: address, library)
        if result < 0 {
          _ = library.sd_bus_close_unref(opened)
          throw SessionBusError.cannotConnect(-result)
        }
      }
    } else {
      let result = library.sd_bus_open_user(&opened)
      guard result >= 0 else { throw SessionBusError.cannotConnect(-result) }
    }
    guard let opened else { throw SessionBusError.cannotConnect(ENOMEM) }
    bus = opened
    // A failure from here on closes the connection in `deinit`, which Swift runs when an
    // initializer throws after every property is set.
    while try library.sd_bus_is_ready(bus).succeeded() == 0 {
      if try library.sd_bus_process(bus, nil).succeeded() == 0 { try wait(until: deadline) }
    }
  }

  deinit { _ = library.sd_bus_close_unref(bus) }

  /// What `sd_bus_open_user` does, for a given address: a bus client, connected.
  private static func start(_ bus: OpaquePointer, at address: String, _ library: AppBusLibrary)
    -> Int32
  {
    let set = library.sd_bus_set_address(bus, address)
    guard set >= 0 else { return set }
    let client = library.sd_bus_set_bus_client(bus, 1)
    guard client >= 0 else { return client }
    return library.sd_bus_start(bus)
  }

  /// Sends `call` and waits for its reply. An error reply is thrown as
  /// `SessionBusError.errorReply`; the reply's signature is checked by the caller's reads.
  func call(_ call: SessionBusCall, deadline: SessionBusDeadline) throws -> SessionBusReply {
    var made: OpaquePointer?
    _ = try library.sd_bus_message_new_method_call(
      bus, &made, call.destination, call.path, call.interface, call.member
    ).succeeded()
    guard let message = made else { throw SessionBusError.lost(ENOMEM) }
    defer { _ = library.sd_bus_message_unref(message) }
    try call.arguments(SessionBusWriter(library: library, message: message))

    // Where the reply handler (C, in shim.h) leaves its reference to the reply.
    let libraryCopy = UnsafeMutablePointer<AppBusLibrary>.allocate(capacity: 1)
    libraryCopy.initialize(to: library)
    defer { libraryCopy.deallocate() }
    let reply = UnsafeMutablePointer<AppBusReplySlot>.allocate(capacity: 1)
    reply.initialize(to: AppBusReplySlot(library: libraryCopy, reply: nil))
    defer { reply.deallocate() }
    var slot: OpaquePointer?
    _ = try library.sd_bus_call_async(
      bus, &slot, message, app_bus_reply_keeper(), reply, deadline.microsecondsLeft()
    ).succeeded()
    // Released before `reply`: a call abandoned (timed out, cancelled) then never writes it.
    defer { _ = library.sd_bus_slot_unref(slot) }
    while reply.pointee.reply == nil {
      if try library.sd_bus_process(bus, nil).succeeded() == 0 { try wait(until: deadline) }
    }
    let answer = SessionBusReply(library: library, message: reply.pointee.reply!)
    if library.sd_bus_message_is_method_error(answer.message, nil) > 0 {
      let error = library.sd_bus_message_get_error(answer.message)
      let name = error?.pointee.name.map { String(cString: $0) } ?? "an error"
      let text = error?.pointee.message.map { String(cString: $0) } ?? ""
      throw SessionBusError.errorReply(text.isEmpty ? name : "\(name): \(text)")
    }
    return answer
  }

  /// Waits until sd-bus has something to do on its socket (or its own timer passes), the
  /// deadline passes or the call is cancelled, whichever comes first.
  private func wait(until deadline: SessionBusDeadline) throws {
    let socket = try library.sd_bus_get_fd(bus).succeeded()
    let events = try library.sd_bus_get_events(bus).succeeded()
    var milliseconds = try deadline.millisecondsLeft()
    var busTimer: UInt64 = 0
    if library.sd_bus_get_timeout(bus, &busTimer) >= 0, busTimer != UInt64.max {
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
      let untilTimer = busTimer > nowMicroseconds ? (busTimer - nowMicroseconds + 999) / 1_000 : 0
      milliseconds = min(milliseconds, Int32(clamping: untilTimer))
    }
    var watched = [
      pollfd(fd: socket, events: Int16(truncatingIfNeeded: events), revents: 0),
      pollfd(fd: deadline.cancel.readEnd, events: Int16(POLLIN), revents: 0),
    ]
    if poll(&watched, 2, milliseconds) < 0, errno != EINTR { throw SessionBusError.lost(errno) }
    if watched[1].revents != 0 { throw SessionBusError.cancelled }
  }
}

/// A connection is used by one thread at a time, under `SessionBus`'s lock.
extension SessionBusConnection: @unchecked Sendable {}

/// sd-bus's functions, loaded by the first question of the process rather than at start.
enum SystemdBusLibrary {
  static func load() throws -> AppBusLibrary {
    var reason: UnsafePointer<CChar>?
    guard let library = app_bus_library(&reason) else {
      let why = reason.map { String(cString: $0) } ?? "unknown reason"
      throw SessionBusError.libraryMissing(why)
    }
    return library.pointee
  }
}

/// The table is filled once, before any caller sees it, and never written again.
extension AppBusLibrary: @retroactive @unchecked Sendable {}

extension Int32 {
  /// sd-bus's result: itself when not negative, else the error it names (`-errno`).
  func succeeded() throws -> Int32 {
    guard self >= 0 else { throw SessionBusError.lost(-self) }
    return self
  }
}
