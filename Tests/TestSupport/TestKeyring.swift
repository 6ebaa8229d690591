import Foundation

/// Whether the specs that need a Secret Service in the test process run here (the
/// end-to-end tests start their own: `PrivateSessionBus`).
public enum TestKeyring {
  /// True under CI=true (where a missing keyring must fail, not skip; scripts/test runs
  /// these specs inside scripts/with-keyring), or when the session bus has a Secret Service
  /// that answers.
  public static let shouldTest: Bool = isCI || isReachable

  public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// Asks `secret-tool` to look up an item nobody has; exit codes 0 and 1 both mean the
  /// service answered.
  public static let isReachable: Bool = {
    guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
      return false
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    process.arguments = ["5", "secret-tool", "lookup", "service", "app-tests-reachability-check"]
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return process.terminationStatus <= 1 && message.isEmpty
  }()
}
