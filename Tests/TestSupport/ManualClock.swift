import Synchronization

/// A clock that moves only when a test moves it, and shows who sleeps on it.
///
/// swift-clocks' `TestClock` cannot show its sleepers, so a test that waits for code to fall
/// asleep has to move it on blindly, a step at a time, and each of its steps lets other work
/// run with `Task.megaYield()`: twenty tasks at background priority, one after another.
/// libdispatch on Linux runs background work on threads at nice 10, so on a machine whose
/// cores are busy those tasks wait behind everything else: a 3 s wait in 100 ms steps is
/// 1,200 of them, and a loaded suite ran out its minute (docs/decisions/). This clock
/// needs no yielding: `advance(until:_:)` waits for what it can see (the code done, or
/// asleep on the clock) and then jumps to the sleep's deadline.
public final class ManualClock: Clock, Sendable {
  public typealias Duration = Swift.Duration

  public typealias Instant = OffsetInstant

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var lastID: UInt64 = 0
    /// Sleeps cancelled before they were registered: they end at once when they are.
    var cancelledEarly: Set<UInt64> = []
  }

  private let state = Mutex(State())

  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// The earliest deadline anyone sleeps until, or nil when nobody sleeps.
  public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

  /// How many sleep on the clock now: once what a move woke is asleep again, the count is
  /// back where it was, and nothing runs until the next move or a signal.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Whether somebody sleeps until exactly `deadline` (a loop's next turn, say).
  public func hasSleeper(until deadline: Instant) -> Bool {
    state.withLock { $0.sleepers.contains { $0.deadline == deadline } }
  }

  /// Returns at `deadline`, at once when it has passed; throws when the task is cancelled.
  /// Each sleep is resumed exactly once: by `advance`, by its cancellation, or at once.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let endsAtOnce: Result<Void, any Error>? = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let endsAtOnce { continuation.resume(with: endsAtOnce) }
      }
    } onCancel: {
      let sleeper: Sleeper? = state.withLock { state in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          // Not registered yet (or already woken, when the id is never seen again).
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time to `deadline` (never back), waking every sleep due by then.
  public func advance(to deadline: Instant) {
    let due: [Sleeper] = state.withLock { state in
      let due = state.sleepers.filter { $0.deadline <= deadline }
      state.sleepers.removeAll { $0.deadline <= deadline }
      if state.now < deadline { state.now = deadline }
      return due.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  public func advance(by duration: Duration) {
    advance(to: now.advanced(by: duration))
  }

  /// Moves time on, one sleep at a time, until `done()` holds. Each turn waits, bounded in
  /// real time by `limit`, until the code under test is done or asleep on this clock, then
  /// moves to the earliest deadline. Fails naming `what` when that wait runs out, or when
  /// more than `clockLimit` of clock time has passed.
  ///
  /// The real-time bound is generous on purpose: it is only reached when something is
  /// wrong, and a loaded machine (the stress runs' busy loops on every core) runs the code
  /// under test many times slower than an idle one.
  nonisolated(nonsending) public func advance(
    until what: String, within limit: Duration = .seconds(40),
    clockLimit: Duration = .seconds(60), _ done: () -> Bool
  ) async throws {
    let start = now
    while true {
      try await waitUntil("\(what) (or a sleep on the clock)", within: limit) {
        done() || nextDeadline != nil
      }
      if done() { return }
      guard let deadline = nextDeadline else { continue }
      guard start.duration(to: deadline) <= clockLimit else {
        throw NeverHappened(what, within: clockLimit)
      }
      advance(to: deadline)
    }
  }
}
