#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// One of the two calls' answers, settled: a failure is an answer too.
typealias PushAnswer = Result<Bool, PushCallError>

/// The seed's publishers, awaited the ways the push flows need: two at once, or shielded from
/// the caller's cancellation so that a change under way is finished and reconciled, never
/// abandoned half-done. The rules that decide which calls to make are in
/// `PushRegistrationFlows`; this is only how a call is made.
enum PublisherCalls {
  /// Subscribes to both publishers at once and waits for the first value of each. The first
  /// failure, from either side, ends the wait at once and cancels the other call. (Not
  /// `async let`: awaiting the pair waits for the first one even when the second has
  /// already failed. Not `Publishers.Zip`: OpenCombine's Zip crashes when its upstreams
  /// answer on other threads after the zipped subscription is released.)
  nonisolated(nonsending) static func together<A: Publisher, B: Publisher>(_ first: A, _ second: B)
    async throws -> (A.Output, B.Output)
  where A: SendableMetatype, B: SendableMetatype, A.Output: Sendable, B.Output: Sendable {
    try await bothFirstValues(UncheckedPublisher(first), UncheckedPublisher(second))
  }

  /// `together`, in a task of its own that the caller's cancellation does not reach.
  nonisolated(nonsending) static func shieldedTogether<A: Publisher, B: Publisher>(
    _ first: A, _ second: B
  ) async throws -> (A.Output, B.Output)
  where A: SendableMetatype, B: SendableMetatype, A.Output: Sendable, B.Output: Sendable {
    let firstCall = UncheckedPublisher(first)
    let secondCall = UncheckedPublisher(second)
    return try await Task { try await bothFirstValues(firstCall, secondCall) }.value
  }

  /// Runs both calls together and waits for both answers, even if the task is cancelled
  /// meanwhile.
  nonisolated(nonsending) static func shieldedPair(
    _ first: AnyPublisher<Bool, Error>, _ second: AnyPublisher<Bool, Error>
  ) async -> (PushAnswer, PushAnswer) {
    do {
      return try await shieldedTogether(settled(first), settled(second))
    } catch {
      return (.failure(PushCallError("no answer")), .failure(PushCallError("no answer")))
    }
  }

  /// One call's answer, settled and shielded from cancellation.
  nonisolated(nonsending) static func shieldedAnswer(_ call: AnyPublisher<Bool, Error>) async
    -> PushAnswer
  {
    (try? await shieldedValue(settled(call))) ?? .failure(PushCallError("no answer"))
  }

  /// A publisher's first value, in a task the caller's cancellation does not reach.
  nonisolated(nonsending) static func shieldedValue<P: Publisher>(_ publisher: P) async throws
    -> P.Output
  where P: SendableMetatype, P.Output: Sendable {
    let subscribed = UncheckedPublisher(publisher)
    return try await Task { try await subscribed.publisher.firstValue() }.value
  }

  /// A wait on `clock` that the caller's cancellation does not cut short.
  nonisolated(nonsending) static func shieldedSleep(
    for duration: Duration, on clock: any Clock<Duration>
  ) async throws {
    try await Task { try await clock.sleep(for: duration) }.value
  }

  /// A publisher that always completes with a value: the answer, or the failure as a value.
  private static func settled(_ publisher: AnyPublisher<Bool, Error>)
    -> AnyPublisher<PushAnswer, Never>
  {
    publisher.first()
      .map { PushAnswer.success($0) }
      .catch { Just(PushAnswer.failure(PushCallError("\($0)"))) }
      .replaceEmpty(with: .failure(PushCallError("no answer")))
      .eraseToAnyPublisher()
  }

  private static func bothFirstValues<A: Publisher, B: Publisher>(
    _ firstCall: UncheckedPublisher<A>, _ secondCall: UncheckedPublisher<B>
  ) async throws -> (A.Output, B.Output)
  where A: SendableMetatype, B: SendableMetatype, A.Output: Sendable, B.Output: Sendable {
    try await withThrowingTaskGroup(of: EitherAnswer<A.Output, B.Output>.self) { group in
      group.addTask { .first(try await firstCall.publisher.firstValue()) }
      group.addTask { .second(try await secondCall.publisher.firstValue()) }
      var first: A.Output?
      var second: B.Output?
      for try await answer in group {
        switch answer {
        case .first(let value): first = value
        case .second(let value): second = value
        }
      }
      guard let first, let second else { throw PublisherFinishedEmpty() }
      return (first, second)
    }
  }
}

/// The answer of one of the two calls `together` runs.
private enum EitherAnswer<First: Sendable, Second: Sendable>: Sendable {
  case first(First)
  case second(Second)
}

/// A publisher handed to the task that subscribes to it. The seed's protocols do not promise
/// Sendable publishers; each one is subscribed exactly once, by that task alone, and the
/// caller never touches it again.
private struct UncheckedPublisher<P: Publisher>: @unchecked Sendable {
  let publisher: P
  init(_ publisher: P) { self.publisher = publisher }
}
