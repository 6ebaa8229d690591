import Domain

/// `RealtimeEventsService` over the `/events` long poll.
///
/// It first asks where the server's events stand, then asks again and again for the events
/// after the last it saw. Nothing is dropped: the stream's buffer is unbounded (the seed's
/// held one event), and a reconnect resumes with `after=last`, which the contract promises
/// misses nothing and repeats nothing. A failed poll is tried again after a growing pause
/// (`RealtimeRetry`), for as long as the stream is consumed; only the end of the session or
/// a request the server calls wrong ends it. A server whose events were reset (its `last`
/// went back) is followed from its new `last`.
public struct LongPollRealtimeEventsService: RealtimeEventsService {
  /// Waits out a pause between tries; it may return early (the server is known to answer
  /// again) and throws when the watch is cancelled.
  public typealias Pause = @Sendable (Duration) async throws -> Void

  private let remote: any RealtimeEventsRemoteAPI
  private let access: SignedInAccess
  private let pause: Pause
  private let random: @Sendable () -> Double
  private let wait: Int

  /// `wait` must stay under the HTTP client's time limit (15 s). `random` gives the jitter
  /// of the pauses, in 0..<1.
  public init(
    remote: any RealtimeEventsRemoteAPI, access: SignedInAccess, clock: any Clock<Duration>,
    pause: Pause? = nil, random: @escaping @Sendable () -> Double = { 0 }, wait: Int = 10
  ) {
    self.remote = remote
    self.access = access
    self.pause = pause ?? { try await clock.sleep(for: $0) }
    self.random = random
    self.wait = wait
  }

  public func events() -> AsyncThrowingStream<RealtimeSignal, any Error> {
    let (stream, continuation) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream(
      bufferingPolicy: .unbounded)
    let task = Task { [self] in
      do {
        try await watch(continuation)
        continuation.finish()
      } catch {
        // A cancelled poll can come back as any error (the embedded backend's interrupted
        // wait answers 500): once cancelled, the stream simply ends.
        if Task.isCancelled || error is CancellationError {
          continuation.finish()
        } else {
          continuation.finish(throwing: error)
        }
      }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  /// Polls until cancelled; throws only what ends the watch.
  private func watch(_ continuation: AsyncThrowingStream<RealtimeSignal, any Error>.Continuation)
    async throws
  {
    // The session is read from the store once for the watch, not at every poll.
    let session = SignedInAccess.Kept()
    // nil until the server has said where its events stand.
    var after: Int?
    var failures = 0
    var saidInterrupted = false
    while !Task.isCancelled {
      do {
        guard let seen = after else {
          let last = try await poll(after: Int.max, wait: 0, session).last
          after = last
          failures = 0
          continuation.yield(.watching(from: last))
          continue
        }
        // After a failure the first poll asks without waiting: it finds out at once whether
        // the server answers, where a long wait would keep the reachability offline (one
        // request at a time asks a server that is offline) until its end.
        let batch = try await poll(after: seen, wait: failures > 0 ? 0 : wait, session)
        failures = 0
        if saidInterrupted {
          saidInterrupted = false
          continuation.yield(.resumed)
        }
        if batch.last < seen {
          continuation.yield(.serverReset(last: batch.last))
        } else {
          for numbered in batch.events {
            continuation.yield(.event(numbered.event, seq: numbered.seq))
          }
        }
        after = batch.last
      } catch {
        if Task.isCancelled || error is CancellationError { throw CancellationError() }
        if RealtimeRetry.endsTheWatch(error) { throw error }
        failures += 1
        if failures == RealtimeRetry.failuresBeforeSaying {
          saidInterrupted = true
          continuation.yield(.interrupted(error))
        }
        try await pause(RealtimeRetry.pause(after: error, failures: failures, random: random()))
      }
    }
  }

  private func poll(after: Int, wait: Int, _ session: SignedInAccess.Kept) async throws
    -> RealtimeEventBatch
  {
    try await access.perform(keeping: session) { [remote] token in
      try await remote.fetchEvents(after: after, wait: wait, token: token)
    }
  }
}
