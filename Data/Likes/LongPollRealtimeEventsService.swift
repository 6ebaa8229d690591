import Domain

/// `RealtimeEventsService` over the `/events` long poll.
///
/// It first asks where the server's events stand, then asks again and again for the events
/// after the last it saw. Nothing is dropped: the stream's buffer is unbounded (the seed's
/// held one event), and a reconnect resumes with `after=last`, which the contract promises
/// misses nothing and repeats nothing. A server that cannot be reached is tried again after
/// a growing pause on the injected clock; any other failure ends the stream with it.
public struct LongPollRealtimeEventsService: RealtimeEventsService {
  private let remote: any RealtimeEventsRemoteAPI
  private let access: SignedInAccess
  private let clock: any Clock<Duration>
  private let wait: Int

  /// `wait` must stay under the HTTP client's time limit (15 s).
  public init(
    remote: any RealtimeEventsRemoteAPI, access: SignedInAccess, clock: any Clock<Duration>,
    wait: Int = 10
  ) {
    self.remote = remote
    self.access = access
    self.clock = clock
    self.wait = wait
  }

  public func events() -> AsyncThrowingStream<RealtimeEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream<RealtimeEvent, any Error>.makeStream(
      bufferingPolicy: .unbounded)
    let task = Task { [remote, access, clock, wait] in
      do {
        var after = try await Self.poll(remote, access, after: Int.max, wait: 0).last
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
          do {
            let batch = try await Self.poll(remote, access, after: after, wait: wait)
            for event in batch.events { continuation.yield(event) }
            after = batch.last
            pause = .seconds(1)
          } catch let error as RemoteAPIError where error.isConnectivity {
            try await clock.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
          }
        }
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

  private static func poll(
    _ remote: any RealtimeEventsRemoteAPI, _ access: SignedInAccess, after: Int, wait: Int
  ) async throws -> RealtimeEventBatch {
    try await access.perform { token in
      try await remote.fetchEvents(after: after, wait: wait, token: token)
    }
  }
}
