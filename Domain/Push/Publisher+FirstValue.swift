#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

extension Publisher {
  /// The publisher's first value, awaited. Cancelling the task cancels the subscription.
  /// A publisher that finishes without a value is an error, not a hang.
  nonisolated(nonsending) func firstValue() async throws -> Output where Output: Sendable {
    let box = SubscriptionBox()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Output, Error>) in
        let once = ResumeOnce(continuation)
        box.set(
          first().sink(
            receiveCompletion: { completion in
              switch completion {
              case .finished: once.resume(throwing: PublisherFinishedEmpty())
              case .failure(let error): once.resume(throwing: error)
              }
            },
            receiveValue: { once.resume(returning: $0) }))
      }
    } onCancel: {
      box.cancel()
    }
  }
}

struct PublisherFinishedEmpty: Error {}
