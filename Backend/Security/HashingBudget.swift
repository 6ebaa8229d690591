/// How much of the machine the hashes that run ahead of the reads may take: a bucket of CPU
/// seconds, earned at `rate` a second up to `capacity`, spent by each hash that runs ahead.
///
/// Ahead of the reads, a sign-in finds a core at once, so a load with a sign-in in every few
/// dozen requests keeps its p99 (issue 45); a storm of sign-ins would take a whole core from
/// the reads (issue 35). The bucket lets the first through and holds the second to `rate`.
/// Times are seconds on any clock that only goes forward; the caller passes them, so tests
/// choose them.
struct HashingBudget: Sendable {
  /// CPU seconds earned per second: 0.3 for the default share (0.15) of two cores.
  let rate: Double
  /// The most that can be saved up: a second's worth of `rate`.
  let capacity: Double
  /// Seconds of CPU that may still be spent; below zero after a hash cost more than expected.
  private(set) var balance: Double
  /// What the next hash is expected to cost: the last one's, at most `capacity` (until one
  /// has run, `capacity`, so that a first burst is not let through on a guess of nothing).
  private(set) var expectedCost: Double
  private var updated: Double

  init(rate: Double, now: Double) {
    precondition(rate > 0)
    self.rate = rate
    capacity = rate
    balance = rate
    expectedCost = rate
    updated = now
  }

  /// Takes the next hash's expected cost when the balance holds it, and returns what was
  /// taken; nil when the hash is to run behind the reads instead.
  mutating func admit(now: Double) -> Double? {
    balance = min(capacity, balance + max(0, now - updated) * rate)
    updated = now
    guard balance >= expectedCost else { return nil }
    balance -= expectedCost
    return expectedCost
  }

  /// A hash admitted with `charged` cost `seconds` of CPU: the difference is settled, and
  /// the next hash is expected to cost as much.
  mutating func spent(_ seconds: Double, charged: Double) {
    balance -= seconds - charged
    expectedCost = min(seconds, capacity)
  }
}
