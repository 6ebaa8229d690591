#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

// The seed's `NotificationService`, as it gives it.

/// The stand-in for `UNNotificationSettings` and the push token: asks for permission and
/// gives this device's token, or fails with `NotificationPermissionError.denied`.
public protocol NotificationService {
  func requestPermissionAndToken() -> AnyPublisher<String, Error>
}

public enum NotificationPermissionError: Error, Equatable, Sendable {
  case denied
}
