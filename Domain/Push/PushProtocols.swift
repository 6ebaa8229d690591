#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

// The seed's protocols and enum, as it gives them, with its abbreviations spelt out: the
// seed's `PushAuthenticationUC`, `SessionUC` and `VendorUC` are the use cases below.

public enum RegistrationStatus: Equatable, Sendable {
  case register
  case unregister
  case anotherDevice
}

public protocol PushAuthenticationUseCase {
  func getRegistrationStatus(session: String) -> AnyPublisher<RegistrationStatus, Error>
  func register(with uuid: String, session: String, token: String) -> AnyPublisher<Bool, Error>
  func deRegister(with uuid: String) -> AnyPublisher<Bool, Error>
}

public protocol PushSessionUseCase {
  func fetchSession() -> AnyPublisher<String, Error>
}

public protocol VendorRegistrationUseCase {
  func checkRegistrationStatusPublisher(uuid: String) -> AnyPublisher<RegistrationStatus, Error>
  func registerUser(with uuid: String) -> AnyPublisher<Bool, Error>
  func deRegisterUser(with uuid: String) -> AnyPublisher<Bool, Error>
}

/// The stand-in for `UNNotificationSettings` and the push token: asks for permission and
/// gives this device's token, or fails with `NotificationPermissionError.denied`.
public protocol NotificationService {
  func requestPermissionAndToken() -> AnyPublisher<String, Error>
}

public enum NotificationPermissionError: Error, Equatable, Sendable {
  case denied
}
