import Synchronization

/// A clock on which every sleep ends at once, time jumping to its deadline: for the waits a
/// test does not care about, such as the push flow's pause after fetching the session or the
/// long poll's back-off.
///
/// Why not swift-clocks' `ImmediateClock`: each of its sleeps ends in `Task.megaYield()`,
/// twenty detached tasks at background priority run one after another, each waiting its
/// turn in the cooperative pool. With the whole suite running on two cores, one sleep of
/// zero seconds took 3 to 5 s, and a push test's 10 s bound for its two requests ran out
/// before they were even sent. Here a sleep is one `Task.yield()`: still a suspension
/// point, so a loop that sleeps on this clock cannot hold a thread, but one turn, not twenty.
public final class InstantClock: Clock, Sendable {
  public typealias Duration = Swift.Duration

  public typealias Instant = OffsetInstant

  private let current = Mutex(Instant(offset: .zero))

  public init() {}

  public var now: Instant { current.withLock { $0 } }
  public var minimumResolution: Duration { .zero }

  /// Moves time to `deadline` (never back) and returns after one yield. Like a real clock,
  /// it throws `CancellationError` when the task is cancelled before or during the sleep.
  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
    await Task.yield()
    try Task.checkCancellation()
  }
}
