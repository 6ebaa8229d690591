#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

// The seed's `SessionUC`, as it gives it, the name spelt out.

public protocol PushSessionUseCase {
  func fetchSession() -> AnyPublisher<String, Error>
}
