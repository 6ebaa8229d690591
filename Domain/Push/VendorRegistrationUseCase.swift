#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

// The seed's `VendorUC`, as it gives it, the name spelt out.

public protocol VendorRegistrationUseCase {
  func checkRegistrationStatusPublisher(uuid: String) -> AnyPublisher<RegistrationStatus, Error>
  func registerUser(with uuid: String) -> AnyPublisher<Bool, Error>
  func deRegisterUser(with uuid: String) -> AnyPublisher<Bool, Error>
}
