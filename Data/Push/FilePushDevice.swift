import Domain
import Foundation
import Synchronization
import SystemSupport

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// This install as a push device: its uuid, its push token and the notification permission,
/// kept in `push-device.json` in the data folder. The stand-in for `UNNotificationSettings`
/// and the APNs token.
///
/// The permission is asked once (`ask`); a yes or no is kept. When nobody can be asked
/// (`ask` answers nil) the permission is denied for this run only, so a later run can grant it.
/// A front end with no other way to grant it asks again after a no (`asksAgainAfterNo`).
public final class FilePushDevice: NotificationService, Sendable {
  public enum Answer: Sendable {
    case granted
    case denied
    case notAsked
  }

  private struct Stored: Codable {
    var deviceID: String
    var token: String
    var permission: Bool?
  }

  private let file: URL
  private let ask: @Sendable () -> Answer
  private let asksAgainAfterNo: Bool
  private let stored: Mutex<Stored>

  /// `deviceIDOverride` (`APP_DEVICE_ID`) plays another device without touching the file's.
  public init(
    file: URL, deviceIDOverride: String?, randomBytes: @Sendable (Int) -> [UInt8],
    asksAgainAfterNo: Bool = false, ask: @escaping @Sendable () -> Answer
  ) throws {
    self.file = file
    self.ask = ask
    self.asksAgainAfterNo = asksAgainAfterNo
    var state: Stored
    if let data = try? Data(contentsOf: file),
      let decoded = try? JSONDecoder().decode(Stored.self, from: data)
    {
      state = decoded
    } else {
      state = Stored(
        deviceID: UUIDText.version4(from: randomBytes(16)),
        token: randomBytes(32).map { String(format: "%02x", $0) }.joined(),
        permission: nil)
      try Self.write(state, to: file)
    }
    if let deviceIDOverride, !deviceIDOverride.isEmpty { state.deviceID = deviceIDOverride }
    stored = Mutex(state)
  }

  public var deviceID: String { stored.withLock { $0.deviceID } }

  public func requestPermissionAndToken() -> AnyPublisher<String, Error> {
    // Asking may wait for the person to answer a prompt: off the cooperative pool.
    asyncPublisher { [self] in
      try await BlockingCall.run("app.notification-permission") { try self.permittedToken() }
    }
  }

  private func permittedToken() throws -> String {
    let current = stored.withLock { $0 }
    switch current.permission {
    case true?: return current.token
    case false? where !asksAgainAfterNo: throw NotificationPermissionError.denied
    case false?, nil: break
    }
    switch ask() {
    case .granted:
      try remember(permission: true)
      return current.token
    case .denied:
      try remember(permission: false)
      throw NotificationPermissionError.denied
    case .notAsked:
      throw NotificationPermissionError.denied
    }
  }

  /// Grants the permission without asking (`--allow-notifications`), and keeps it.
  public func grant() throws {
    try remember(permission: true)
  }

  private func remember(permission: Bool) throws {
    let state = stored.withLock { state in
      state.permission = permission
      return state
    }
    // The file keeps the device's own uuid, never an override.
    var onDisk = state
    if let data = try? Data(contentsOf: file),
      let decoded = try? JSONDecoder().decode(Stored.self, from: data)
    {
      onDisk.deviceID = decoded.deviceID
    }
    try Self.write(onDisk, to: file)
  }

  private static func write(_ state: Stored, to file: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(state).write(to: file, options: .atomic)
  }
}
