#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

extension Publisher {
  /// The publisher's first value, awaited.
  ///
  /// The continuation is resumed exactly once, whichever comes first: a value, a failure, a
  /// finish without a value (`PublisherFinishedEmpty`, not a hang) or the task's cancellation
  /// (`CancellationError`, before or after the subscription is made). Cancelling also cancels
  /// the subscription. A cancelled subscription sends no completion, so cancellation itself
  /// must resume: waiting for the publisher to say something would wait for ever.
  nonisolated(nonsending) public func firstValue() async throws -> Output
  where Output: Sendable {
    let call = FirstValueCall<Output>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Output, Error>) in
        guard call.start(continuation) else { return }
        call.hold(
          first().sink(
            receiveCompletion: { completion in
              switch completion {
              case .finished: call.finish(.failure(PublisherFinishedEmpty()))
              case .failure(let error): call.finish(.failure(error))
              }
            },
            receiveValue: { call.finish(.success($0)) }))
      }
    } onCancel: {
      call.cancel()
    }
  }
}

/// A publisher finished before it sent any value.
public struct PublisherFinishedEmpty: Error, Equatable, Sendable {
  public init() {}
}
