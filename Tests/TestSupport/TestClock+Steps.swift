import Clocks

extension TestClock where Duration == Swift.Duration {
  /// Moves time on in steps of `step` until `done()` holds, and fails naming `what` when it
  /// still does not after `limit` of clock time. A flow that starts sleeping a moment after
  /// the test began advancing still wakes, which a single jump of the exact length cannot
  /// promise. Between steps it waits (bounded, in real time) for the woken tasks to act, and
  /// after the last step longer, up to 10 s.
  public func advance(
    by step: Duration = .milliseconds(100), upTo limit: Duration = .seconds(30),
    until what: String, _ done: @Sendable () -> Bool
  ) async throws {
    var moved = Duration.zero
    while !done() {
      guard moved < limit else {
        // The last step's woken tasks may still be at work: a query to a real database on
        // a loaded machine outlasts the 20 ms between steps. The clock stays at `limit`;
        // they get a longer wait in real time, still bounded, before the failure.
        do {
          return try await waitUntil(what, within: .seconds(10), done)
        } catch {
          throw NeverHappened(what, within: limit)
        }
      }
      await advance(by: step)
      moved += step
      // Give the tasks this step woke a bounded chance to act before the next step.
      try? await waitUntil(what, within: .milliseconds(20), done)
    }
  }
}
