#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

// The seed's `PushAuthenticationUC` and `RegistrationStatus`, as it gives them, the name
// spelt out.

public protocol PushAuthenticationUseCase {
  func getRegistrationStatus(session: String) -> AnyPublisher<RegistrationStatus, Error>
  func register(with uuid: String, session: String, token: String) -> AnyPublisher<Bool, Error>
  func deRegister(with uuid: String) -> AnyPublisher<Bool, Error>
}

public enum RegistrationStatus: Equatable, Sendable {
  case register
  case unregister
  case anotherDevice
}
