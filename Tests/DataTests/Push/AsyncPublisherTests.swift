import Domain
import Synchronization
import TestSupport
import Testing

@testable import Data

/// `asyncPublisher` bridges the async HTTP calls to the seed's publishers: each subscriber
/// runs the work once, gets its value or error, and cancelling the subscription cancels the
/// work, so an abandoned call does not go on in the background.
@Suite(.timeLimit(.minutes(1))) struct AsyncPublisherTests {
  @Test func publishesTheWorksValue() async throws {
    let runs = Mutex(0)
    let publisher = asyncPublisher {
      runs.withLock { $0 += 1 }
      return "answer"
    }

    #expect(try await publisher.firstValue() == "answer")
    #expect(try await publisher.firstValue() == "answer")
    #expect(runs.withLock { $0 } == 2, "once per subscriber")
  }

  @Test func publishesTheWorksError() async throws {
    let publisher = asyncPublisher { () async throws -> Int in
      throw RemoteAPIError.server(status: 503, code: nil, description: nil)
    }

    await #expect(throws: RemoteAPIError.server(status: 503, code: nil, description: nil)) {
      try await publisher.firstValue()
    }
  }

  @Test func cancelledBeforeSubscribing_neverRunsTheWork() async throws {
    let runs = Mutex(0)
    let publisher = asyncPublisher { runs.withLock { $0 += 1 } }

    let call = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await publisher.firstValue()
    }

    await #expect(throws: CancellationError.self) { try await call.value }
    #expect(runs.withLock { $0 } == 0)
  }

  @Test func cancellingTheCaller_cancelsTheWorkUnderWay() async throws {
    let work = PendingWork()
    let publisher = asyncPublisher { await work.runUntilCancelled() }
    let call = Task { try await publisher.firstValue() }
    try await waitUntil("the work starts") { work.state == .running }

    call.cancel()

    await #expect(throws: CancellationError.self) { try await call.value }
    try await waitUntil("the work sees the cancellation") { work.state == .cancelled }
  }
}

/// Work that runs until its task is cancelled, and says where it is.
private final class PendingWork: Sendable {
  enum State { case notStarted, running, cancelled }
  private let current = Mutex(State.notStarted)
  var state: State { current.withLock { $0 } }

  func runUntilCancelled() async {
    current.withLock { $0 = .running }
    // A stream that never yields ends its iteration only when the task is cancelled (or
    // when its continuation goes away, which the defer prevents).
    let (stream, keepOpen) = AsyncStream<Never>.makeStream()
    defer { keepOpen.finish() }
    for await _ in stream {}
    current.withLock { $0 = .cancelled }
  }
}
