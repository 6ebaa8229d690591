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

/// A publisher that counts its subscriptions and cancellations, and sends from a queue of its
/// own, as a network callback would.
///
/// A subscriber is waited for until its demand has reached the publisher, not only its
/// subscription: Combine may drop a value sent before the demand (a `PassthroughSubject`
/// does). With a subject, `waitForSubscriber` returned between the subscription and the
/// demand when the subscribing thread was preempted there, the value was dropped, and
/// `firstValue()` rightly waited for ever (a hang under `stress-tests --load`).
private final class ObservedSubject: @unchecked Sendable {
  enum Event {
    case value(Int)
    case failure(any Error)
    case finished
  }

  /// The subscriber, handed between the test's task and `queue` under `state`'s lock.
  private struct Downstream: @unchecked Sendable {
    let subscriber: AnySubscriber<Int, Error>
  }

  private struct State {
    var subscriber: Downstream?
    var demand = Subscribers.Demand.none
    var subscriptions = 0
    var cancellations = 0
    var batchesSent = 0
  }

  private let queue = DispatchQueue(label: "another-thread")
  private let state = Mutex(State())

  var publisher: AnyPublisher<Int, Error> { Feed(owner: self).eraseToAnyPublisher() }

  var subscriptions: Int { state.withLock { $0.subscriptions } }
  var cancellations: Int { state.withLock { $0.cancellations } }

  func waitForSubscriber() async throws {
    try await waitUntil("firstValue() subscribes and asks for a value") {
      state.withLock { $0.subscriptions == 1 && $0.demand > 0 }
    }
  }

  func sendOnAnotherThread(_ events: Event...) {
    queue.async { [self] in
      for event in events {
        switch event {
        case .value(let value): deliver(value)
        case .failure(let error): end(.failure(error))
        case .finished: end(.finished)
        }
      }
      state.withLock { $0.batchesSent += 1 }
    }
  }

  func waitUntilSent() async throws {
    try await waitUntil("the subject sent its events") { state.withLock { $0.batchesSent } > 0 }
  }

  /// A value goes to the subscriber only against its demand, as Combine requires.
  private func deliver(_ value: Int) {
    let downstream = state.withLock { state -> Downstream? in
      guard state.demand > 0, let subscriber = state.subscriber else { return nil }
      state.demand -= 1
      return subscriber
    }
    guard let more = downstream?.subscriber.receive(value) else { return }
    state.withLock { $0.demand += more }
  }

  private func end(_ completion: Subscribers.Completion<Error>) {
    let downstream = state.withLock { state in
      defer { state.subscriber = nil }
      return state.subscriber
    }
    downstream?.subscriber.receive(completion: completion)
  }

  private func attach(_ subscriber: AnySubscriber<Int, Error>) {
    let downstream = Downstream(subscriber: subscriber)
    state.withLock {
      $0.subscriptions += 1
      $0.subscriber = downstream
    }
    subscriber.receive(subscription: Link(owner: self))
  }

  private struct Feed: Publisher {
    typealias Output = Int
    typealias Failure = Error
    let owner: ObservedSubject

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Error {
      owner.attach(AnySubscriber(subscriber))
    }
  }

  private final class Link: Subscription, @unchecked Sendable {
    let combineIdentifier = CombineIdentifier()
    private let owner: ObservedSubject
    init(owner: ObservedSubject) { self.owner = owner }

    func request(_ demand: Subscribers.Demand) {
      owner.state.withLock { $0.demand += demand }
    }

    func cancel() {
      owner.state.withLock {
        $0.cancellations += 1
        $0.subscriber = nil
      }
    }
  }
}
