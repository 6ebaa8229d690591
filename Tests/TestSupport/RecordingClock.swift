import Synchronization

/// A `ManualClock` that counts the sleeps started on it, so that a test can wait until the
/// code under test is asleep (its deadline taken) before moving time on. Without that, a
/// test may advance the clock before a task reaches its sleep, and the sleep then starts
/// from the later time.
///
/// It is built on `ManualClock`, not swift-clocks' `TestClock`: a sleep counted here may
/// still be on its way to the base clock when the test moves time to exactly its deadline,
/// and `TestClock` would then keep that sleep waiting for a next step that never comes
/// (it sleeps whenever the deadline is not *before* now). `ManualClock` ends a sleep whose
/// deadline has been reached at once, under the same lock as `advance`.
public final class RecordingClock: Clock, Sendable {
  public typealias Duration = Swift.Duration
  public typealias Instant = ManualClock.Instant

  public let base = ManualClock()
  private let started = Mutex(0)

  public init() {}

  public var now: Instant { base.now }
  public var minimumResolution: Duration { base.minimumResolution }

  /// How many sleeps have started so far.
  public var sleepsStarted: Int { started.withLock { $0 } }

  /// Whether the `sleeps`th sleep has started and a sleep is waiting on the clock: the count
  /// moves just before a sleep reaches the base clock, so a test that checks "still asleep"
  /// after moving time waits for both.
  public func isAsleep(sleeps: Int) -> Bool {
    sleepsStarted == sleeps && base.nextDeadline != nil
  }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    // The deadline is fixed before the count moves, so a test that sees the count may
    // advance at once.
    started.withLock { $0 += 1 }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  public func advance(by duration: Duration) {
    base.advance(by: duration)
  }
}
