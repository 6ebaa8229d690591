#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// A publisher that runs `work` once per subscriber and publishes its result: how the
/// async HTTP adapters answer the seed's publisher-returning protocols.
func asyncPublisher<Output: Sendable>(
  _ work: @escaping @Sendable () async throws -> Output
) -> AnyPublisher<Output, Error> {
  Deferred {
    Future<Output, Error> { promise in
      let fulfil = Promise(promise)
      Task {
        do {
          fulfil(.success(try await work()))
        } catch {
          fulfil(.failure(error))
        }
      }
    }
  }
  .eraseToAnyPublisher()
}

/// A Future's promise handed to the task that fulfils it. Future's promise may be called
/// from any thread, and this one is called once, by that task alone.
private struct Promise<Output>: @unchecked Sendable {
  let promise: (Result<Output, Error>) -> Void
  init(_ promise: @escaping (Result<Output, Error>) -> Void) { self.promise = promise }
  func callAsFunction(_ result: Result<Output, Error>) { promise(result) }
}
