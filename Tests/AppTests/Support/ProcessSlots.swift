/// A bound on how many `app` processes the suite runs at once.
///
/// Swift Testing starts every test together, and the end-to-end tests alone would start a
/// hundred processes at the same moment. On a 2-core machine the scheduler then gives each
/// of them, and the test process itself, a sliver of the CPU: unit tests waiting on an
/// observed change ran out of their bound, and commands measured against the 3 s + 15 s rule
/// were slow only because they queued for a core. Waiting for a slot happens before a
/// process starts, so what a test measures is the process itself.
actor ProcessSlots {
  static let shared = ProcessSlots(count: 8)

  private var free: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(count: Int) {
    free = count
  }

  /// Runs `body` holding a slot.
  func withSlot<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
    await acquire()
    defer { release() }
    return try await body()
  }

  private func acquire() async {
    if free > 0 {
      free -= 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Hands the slot to the first waiter, or frees it. A waiter's continuation is resumed
  /// once, here, and only waiters that were queued are resumed.
  private func release() {
    if waiting.isEmpty {
      free += 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
