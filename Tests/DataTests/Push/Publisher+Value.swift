import Foundation
import Synchronization

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

extension Publisher where Output: Sendable {
  /// The first value, awaited, for tests of publisher-returning adapters.
  func value() async throws -> Output {
    let holder = CancellableHolder()
    return try await withCheckedThrowingContinuation { continuation in
      let resumed = Mutex(false)
      let resume: @Sendable (Result<Output, Error>) -> Void = { result in
        guard
          resumed.withLock({ done in
            defer { done = true }; return !done
          })
        else { return }
        continuation.resume(with: result)
      }
      holder.keep(
        first().sink(
          receiveCompletion: { completion in
            if case .failure(let error) = completion {
              resume(.failure(error))
            } else {
              resume(.failure(CancellationError()))
            }
          },
          receiveValue: { resume(.success($0)) }))
    }
  }
}

/// Keeps a test's subscription alive until the test ends.
private final class CancellableHolder: @unchecked Sendable {
  // Written once, before anything else reads it; only kept alive, never read.
  private var cancellable: AnyCancellable?
  func keep(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
}
