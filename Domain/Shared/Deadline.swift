/// A moment on a clock, taken when a timer is scheduled, and a sleep until it.
///
/// A timer that sleeps a *relative* duration starts counting when its task first runs, which
/// may be later than when it was scheduled (on a busy machine, or after a test has already
/// moved a `TestClock` on). Taking the deadline at scheduling time and sleeping *until* it
/// makes the timer end at the same moment however late its task starts: a deadline already
/// past ends the sleep at once.
public struct Deadline: Sendable {
  private let sleepUntilDeadline: @Sendable () async throws -> Void

  /// `duration` from now on `clock`.
  public init<C: Clock>(after duration: Duration, on clock: C) where C.Duration == Duration {
    let deadline = clock.now.advanced(by: duration)
    sleepUntilDeadline = {
      // A deadline already reached ends at once, on every clock (a test clock may otherwise
      // wait for its next step when the deadline is exactly now).
      guard clock.now < deadline else { return try Task.checkCancellation() }
      try await clock.sleep(until: deadline, tolerance: nil)
    }
  }

  /// Returns at the deadline, at once if it has passed; throws if the task is cancelled.
  public func sleep() async throws {
    try await sleepUntilDeadline()
  }
}
