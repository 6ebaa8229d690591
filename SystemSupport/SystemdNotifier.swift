import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// systemd's readiness protocol (`sd_notify(3)`), in the few lines it takes: a datagram of
/// `KEY=value` lines to the unix socket `NOTIFY_SOCKET` names. A service of `Type=notify`
/// sends `READY=1` once it serves, `STOPPING=1` when it begins to stop, and `WATCHDOG=1`
/// at least every `WATCHDOG_USEC` when its unit sets `WatchdogSec=`. Outside systemd there
/// is no `NOTIFY_SOCKET`, and every call does nothing.
public struct SystemdNotifier: Sendable {
  /// The socket's address: a path, or `@name` for an abstract socket.
  public let socket: String?
  private let watchdogMicroseconds: Int?

  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    processID: Int32 = getpid()
  ) {
    socket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    // The watchdog is this process's only when WATCHDOG_PID, if set, names it.
    let forThisProcess = environment["WATCHDOG_PID"].map { $0 == String(processID) } ?? true
    watchdogMicroseconds =
      forThisProcess
      ? environment["WATCHDOG_USEC"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } : nil
  }

  /// How often to send `WATCHDOG=1`: half the unit's `WatchdogSec`, as sd_watchdog_enabled(3)
  /// advises. Nil when no watchdog is asked for.
  public var watchdogInterval: Duration? {
    guard socket != nil, let watchdogMicroseconds else { return nil }
    return .microseconds(watchdogMicroseconds / 2)
  }

  /// Sends `state` (`READY=1`, or several lines); false when there is no socket or it could
  /// not be sent. One non-blocking `sendto`: it never waits for systemd.
  @discardableResult
  public func notify(_ state: String) -> Bool {
    guard let socket, var address = Self.address(socket) else { return false }
    let descriptor = Glibc.socket(
      AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let length = socklen_t(
      MemoryLayout.offset(of: \sockaddr_un.sun_path)! + Self.pathLength(socket))
    let bytes = Array(state.utf8)
    let sent = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bytes.withUnsafeBytes {
          sendto(
            descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT),
            generic, length)
        }
      }
    }
    return sent == bytes.count
  }

  /// `sockaddr_un` for a path, or for an abstract name (`@` becomes the leading NUL).
  private static func address(_ socket: String) -> sockaddr_un? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var path = Array(socket.utf8)
    guard path.first == UInt8(ascii: "/") || path.first == UInt8(ascii: "@") else { return nil }
    if path[0] == UInt8(ascii: "@") { path[0] = 0 }
    guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: path)
    }
    return address
  }

  /// A path's address ends at its NUL; an abstract name's is exactly its bytes.
  private static func pathLength(_ socket: String) -> Int {
    socket.hasPrefix("@") ? socket.utf8.count : socket.utf8.count + 1
  }
}
