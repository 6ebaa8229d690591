/// Something a test waited for that did not happen within its bound.
public struct NeverHappened: Error, CustomStringConvertible {
  public let description: String
  public init(_ what: String, within limit: Duration) {
    description = "Never happened within \(limit): \(what)"
  }
}

/// Waits until `condition` holds: the way a test waits for a change it expects another task
/// to make. The wait is bounded by real time and fails naming what never happened, so a
/// missing change is a named failure, not a hang at the next `await`. It does not sleep: it
/// yields, letting the task that makes the change run, and checks again.
///
/// The condition runs in the caller's isolation (the main actor for view-model tests).
nonisolated(nonsending) public func waitUntil(
  _ what: String, within limit: Duration = .seconds(10), _ condition: () -> Bool
) async throws {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: limit)
  while !condition() {
    guard clock.now < deadline else { throw NeverHappened(what, within: limit) }
    await Task.yield()
  }
}
