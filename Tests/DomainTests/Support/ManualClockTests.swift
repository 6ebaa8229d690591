import Synchronization
import TestSupport
import Testing

/// The push suites' clock: time moves only when told, every sleep ends exactly once, and
/// `advance(until:)` finds sleeps instead of stepping blindly.
@Suite(.timeLimit(.minutes(1))) struct ManualClockTests {
  @Test func aSleep_endsAtItsDeadline_andNotBefore() async throws {
    let clock = ManualClock()
    let woke = Mutex(false)
    let sleeper = Task {
      try await clock.sleep(for: .seconds(3))
      woke.withLock { $0 = true }
    }
    try await waitUntil("the task sleeps") { clock.nextDeadline != nil }

    clock.advance(by: .milliseconds(2_999))
    #expect(clock.nextDeadline == clock.now.advanced(by: .milliseconds(1)), "still asleep")
    clock.advance(by: .milliseconds(1))
    try await sleeper.value

    #expect(woke.withLock { $0 })
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func aDeadlineAlreadyReached_endsAtOnce() async throws {
    let clock = ManualClock()
    clock.advance(by: .seconds(5))
    try await clock.sleep(until: clock.now)
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
    #expect(clock.nextDeadline == nil)
  }

  @Test func cancelling_endsTheSleep_withCancellationError_andLeavesNoSleeper() async throws {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
    try await waitUntil("the task sleeps") { clock.nextDeadline != nil }

    sleeper.cancel()

    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.nextDeadline == nil)
    clock.advance(by: .seconds(60))  // nothing left to wake, and nothing resumed twice
  }

  @Test func aTaskCancelledBeforeItSleeps_neverWaits() async throws {
    let clock = ManualClock()
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(60))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.nextDeadline == nil)
  }

  @Test func advanceUntil_movesFromSleepToSleep_toTheirDeadlines() async throws {
    let clock = ManualClock()
    let wokeAt = Mutex<[Duration]>([])
    let work = Task {
      for pause in [Duration.seconds(3), .seconds(15), .milliseconds(200)] {
        try await clock.sleep(for: pause)
        wokeAt.withLock { $0.append(clock.now.offset) }
      }
    }

    try await clock.advance(until: "three pauses are over") { wokeAt.withLock { $0.count == 3 } }
    try await work.value

    #expect(wokeAt.withLock { $0 } == [.seconds(3), .seconds(18), .milliseconds(18_200)])
  }

  @Test func advanceUntil_failsNamingWhatNeverHappened_pastItsClockLimit() async throws {
    let clock = ManualClock()
    let ticking = Task {
      while !Task.isCancelled { try? await clock.sleep(for: .seconds(1)) }
    }
    defer { ticking.cancel() }

    await #expect(throws: NeverHappened.self) {
      try await clock.advance(until: "something that never comes", clockLimit: .seconds(5)) {
        false
      }
    }
    #expect(clock.now.offset == .seconds(5), "it moved on a sleep at a time, no further")
  }
}
