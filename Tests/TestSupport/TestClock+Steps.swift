import Clocks

extension TestClock where Duration == Swift.Duration {
  /// Moves time on in steps of `step` until `done()` holds (at most `limit` in all). A flow
  /// that starts sleeping a moment after the test began advancing still wakes, which a single
  /// jump of the exact length cannot promise.
  public func advance(
    by step: Duration = .milliseconds(100), upTo limit: Duration = .seconds(30),
    until done: @Sendable () -> Bool
  ) async {
    var moved = Duration.zero
    while !done() && moved < limit {
      await advance(by: step)
      moved += step
      for _ in 0..<10 { await Task.yield() }
    }
  }
}
