import Clocks
import Synchronization

/// A `TestClock` that counts the sleeps started on it, so that a test can wait until the
/// code under test is asleep (its deadline taken) before moving time on. Without that, a
/// test may advance the clock before a task reaches its sleep, and the sleep then starts
/// from the later time.
public final class RecordingClock: Clock, Sendable {
  public typealias Duration = Swift.Duration
  public typealias Instant = TestClock<Swift.Duration>.Instant

  public let base = TestClock()
  private let started = Mutex(0)

  public init() {}

  public var now: Instant { base.now }
  public var minimumResolution: Duration { base.minimumResolution }

  /// How many sleeps have started so far.
  public var sleepsStarted: Int { started.withLock { $0 } }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    // The deadline is fixed before the count moves, so a test that sees the count may
    // advance at once.
    started.withLock { $0 += 1 }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  public func advance(by duration: Duration) async {
    await base.advance(by: duration)
  }
}
