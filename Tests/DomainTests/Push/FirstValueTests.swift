import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// `firstValue()` resumes its caller exactly once on every path: a value, a failure, a finish
/// without a value, cancellation before the subscription and cancellation during the call.
/// The publishers here answer on other threads, after the call has subscribed, as the HTTP
/// adapters do; a double resume would crash the test process and a missing one would hang
/// until the suite's time limit names it.
@Suite(.timeLimit(.minutes(1))) struct FirstValueTests {
  @Test func aValueSentFromAnotherThread_isReturned() async throws {
    let subject = ObservedSubject()
    let call = Task { try await subject.publisher.firstValue() }
    try await subject.waitForSubscriber()

    subject.sendOnAnotherThread(.value(7))

    #expect(try await call.value == 7)
  }

  @Test func aFailureSentFromAnotherThread_isThrown() async throws {
    let subject = ObservedSubject()
    let call = Task { try await subject.publisher.firstValue() }
    try await subject.waitForSubscriber()

    subject.sendOnAnotherThread(.failure(Refusal()))

    await #expect(throws: Refusal.self) { try await call.value }
  }

  @Test func aFinishWithoutAValue_isAnError_notAHang() async throws {
    let subject = ObservedSubject()
    let call = Task { try await subject.publisher.firstValue() }
    try await subject.waitForSubscriber()

    subject.sendOnAnotherThread(.finished)

    await #expect(throws: PublisherFinishedEmpty.self) { try await call.value }
  }

  @Test func onlyTheFirstValueCounts() async throws {
    let subject = ObservedSubject()
    let call = Task { try await subject.publisher.firstValue() }
    try await subject.waitForSubscriber()

    subject.sendOnAnotherThread(.value(1), .value(2), .failure(Refusal()))

    #expect(try await call.value == 1)
  }

  @Test func cancelledBeforeTheCall_throwsCancellation_andNeverSubscribes() async throws {
    let subject = ObservedSubject()
    let call = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await subject.publisher.firstValue()
    }

    await #expect(throws: CancellationError.self) { try await call.value }
    #expect(subject.subscriptions == 0)
  }

  @Test func cancelledDuringTheCall_throwsCancellation_andCancelsTheSubscription() async throws {
    let subject = ObservedSubject()
    let call = Task { try await subject.publisher.firstValue() }
    try await subject.waitForSubscriber()

    call.cancel()

    await #expect(throws: CancellationError.self) { try await call.value }
    try await waitUntil("the subscription is cancelled") { subject.cancellations == 1 }
  }

  @Test func aValueAfterCancellation_isIgnored() async throws {
    let subject = ObservedSubject()
    let call = Task { try await subject.publisher.firstValue() }
    try await subject.waitForSubscriber()
    call.cancel()
    await #expect(throws: CancellationError.self) { try await call.value }

    subject.sendOnAnotherThread(.value(9))
    try await subject.waitUntilSent()
  }

  /// A value and a cancellation arriving at the same moment, from two threads, many times:
  /// every call ends once, with one or the other.
  @Test func aValueRacingCancellation_endsEachCallOnce() async throws {
    var outcomes = (values: 0, cancellations: 0)
    for _ in 0..<300 {
      let subject = ObservedSubject()
      let call = Task { try await subject.publisher.firstValue() }
      try await subject.waitForSubscriber()

      subject.sendOnAnotherThread(.value(1))
      call.cancel()

      switch await call.result {
      case .success(1): outcomes.values += 1
      case .failure(is CancellationError): outcomes.cancellations += 1
      case let other: Issue.record("unexpected outcome \(other)")
      }
    }
    #expect(outcomes.values + outcomes.cancellations == 300)
  }
}

private struct Refusal: Error {}

/// A subject that counts its subscriptions and cancellations, and sends from a queue of its
/// own, as a network callback would.
private final class ObservedSubject: @unchecked Sendable {
  enum Event {
    case value(Int)
    case failure(any Error)
    case finished
  }

  // The subject is only touched by the test's task and, one batch at a time, by `queue`.
  private let subject = PassthroughSubject<Int, Error>()
  private let queue = DispatchQueue(label: "another-thread")
  private let counts = Mutex((subscriptions: 0, cancellations: 0, batchesSent: 0))

  var publisher: AnyPublisher<Int, Error> {
    subject.handleEvents(
      receiveSubscription: { [self] _ in counts.withLock { $0.subscriptions += 1 } },
      receiveCancel: { [self] in counts.withLock { $0.cancellations += 1 } }
    )
    .eraseToAnyPublisher()
  }

  var subscriptions: Int { counts.withLock { $0.subscriptions } }
  var cancellations: Int { counts.withLock { $0.cancellations } }

  func waitForSubscriber() async throws {
    try await waitUntil("firstValue() subscribes") { subscriptions == 1 }
  }

  func sendOnAnotherThread(_ events: Event...) {
    queue.async { [self] in
      for event in events {
        switch event {
        case .value(let value): subject.send(value)
        case .failure(let error): subject.send(completion: .failure(error))
        case .finished: subject.send(completion: .finished)
        }
      }
      counts.withLock { $0.batchesSent += 1 }
    }
  }

  func waitUntilSent() async throws {
    try await waitUntil("the subject sent its events") { counts.withLock { $0.batchesSent } > 0 }
  }
}
