import Foundation
import Synchronization

/// The app's connection to the session bus, kept for the process once made: one question at
/// a time uses it (`SecretServiceCalls` makes one keyring call at a time), and a question
/// that fails drops it, so the next one connects again. A process whose bus address changed
/// (`DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`) connects to the new one.
enum SessionBus {
  private struct Kept {
    let address: String
    let connection: SessionBusConnection
  }

  /// Held while a question is asked, and while a connection is made, so the warm-up and the
  /// first question never make two.
  private static let kept = Mutex<Kept?>(nil)

  /// Runs `body` on the kept connection, connecting first if there is none.
  static func withConnection<T>(
    deadline: SessionBusDeadline, _ body: (SessionBusConnection) throws -> T
  ) throws -> T {
    let address = currentAddress()
    return try kept.withLock { kept -> T in
      let connection =
        try kept.flatMap { $0.address == address ? $0.connection : nil }
        ?? SessionBusConnection(deadline: deadline)
      kept = nil
      let result = try body(connection)
      kept = Kept(address: address, connection: connection)
      return result
    }
  }

  /// Connects now, so that the first question finds the connection made
  /// (`SecretServiceWarmUp`). A failure is met again, and reported, by that question.
  static func connectAhead(within limit: Duration) {
    guard let cancel = try? BusCancellation() else { return }
    let deadline = SessionBusDeadline(instant: .now + limit, cancel: cancel)
    _ = try? withConnection(deadline: deadline) { _ in }
  }

  /// What sd-bus reads to find the session bus.
  private static func currentAddress() -> String {
    let environment = ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"]
    return environment.map { getenv($0).map { String(cString: $0) } ?? "" }.joined(separator: "\n")
  }
}
