/// A clock seen from the start of a session: deadlines are durations since then, so a
/// session can keep them without knowing the clock's instant type.
struct SessionTime: Sendable {
  /// Time since the session began.
  let elapsed: @Sendable () -> Duration
  /// Sleeps until `deadline` (time since the session began); returns at once if it is past.
  let sleep: @Sendable (_ until: Duration) async throws -> Void

  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let start = clock.now
    elapsed = { start.duration(to: clock.now) }
    sleep = { deadline in try await clock.sleep(until: start.advanced(by: deadline), tolerance: nil)
    }
  }
}
