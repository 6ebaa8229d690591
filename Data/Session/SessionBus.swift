import Foundation
import Synchronization

/// Where the session bus listens, as far as the app connects to it itself: a Unix socket by
/// path or by abstract name. Any other transport (TCP, launchd, autolaunch) is left to GDBus.
enum SessionBusAddress: Equatable, Sendable, CustomStringConvertible {
  case path(String)
  case abstract(String)

  var description: String {
    switch self {
    case .path(let path): path
    case .abstract(let name): "@\(name)"
    }
  }

  /// The session bus of this process: `DBUS_SESSION_BUS_ADDRESS`, or where it is unset,
  /// `$XDG_RUNTIME_DIR/bus` when that socket exists (as libdbus and GDBus look). Nil when
  /// neither names a Unix socket the app can reach itself.
  static func current() -> SessionBusAddress? {
    if let text = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }) {
      return parse(text)
    }
    guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty
    else { return nil }
    let socket = runtime + "/bus"
    var status = stat()
    guard stat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
    return .path(socket)
  }

  /// The first Unix socket of a D-Bus address list (`unix:path=/run/user/1000/bus`,
  /// `unix:abstract=/tmp/dbus-x,guid=…;tcp:…`), its values %-unescaped.
  static func parse(_ text: String) -> SessionBusAddress? {
    for entry in text.split(separator: ";") {
      guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
      var keys: [Substring: String] = [:]
      for pair in entry[entry.index(after: colon)...].split(separator: ",") {
        guard let equals = pair.firstIndex(of: "="),
          let value = String(pair[pair.index(after: equals)...]).removingPercentEncoding
        else { continue }
        keys[pair[..<equals]] = value
      }
      if let path = keys["path"], !path.isEmpty { return .path(path) }
      if let name = keys["abstract"], !name.isEmpty { return .abstract(name) }
    }
    return nil
  }
}

/// The app's own connection to the session bus, kept for the process once made: one
/// question at a time uses it (`SecretServiceClient` makes one keyring call at a time), and
/// a question that fails drops it, so the next one connects again.
enum SessionBus {
  private struct Kept {
    let address: SessionBusAddress
    let connection: SessionBusConnection
  }

  /// Held while a question is asked, and while a connection is made, so the warm-up and the
  /// first question never make two.
  private static let kept = Mutex<Kept?>(nil)

  /// Runs `body` on the kept connection to `address`, connecting first if there is none.
  static func withConnection<T>(
    to address: SessionBusAddress, deadline: ContinuousClock.Instant, cancel: WireCancellation,
    _ body: (SessionBusConnection) throws -> T
  ) throws -> T {
    try kept.withLock { kept -> T in
      let connection =
        try kept.flatMap { $0.address == address ? $0.connection : nil }
        ?? SessionBusConnection(address: address, deadline: deadline, cancel: cancel)
      kept = nil
      let result = try body(connection)
      kept = Kept(address: address, connection: connection)
      return result
    }
  }

  /// Connects now, so that the first question finds the connection made
  /// (`SecretServiceWarmUp`). A failure is met again, and reported, by that question.
  static func connectAhead(to address: SessionBusAddress, within limit: Duration) {
    guard let cancel = try? WireCancellation() else { return }
    _ = try? withConnection(to: address, deadline: .now + limit, cancel: cancel) { _ in }
  }
}

/// A connection is used by one thread at a time, under `SessionBus`'s lock.
extension SessionBusConnection: @unchecked Sendable {}
