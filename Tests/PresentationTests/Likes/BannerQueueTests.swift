import Presentation
import TestSupport
import Testing

/// Each banner's deadline is taken when it is shown, so a check that a banner is still up
/// right after moving the clock is certain (its timer cannot end early); a check that it
/// has gone waits, with a bound, for the timer's task to act. The clock is a `ManualClock`:
/// a timer that reaches its sleep just after the test moved time to exactly its deadline
/// ends at once there, where swift-clocks' `TestClock` would keep it waiting for a next step.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct BannerQueueTests {
  @Test func aBanner_isDismissedAfterTenSeconds_onTheClock() async throws {
    let clock = ManualClock()
    let sut = BannerQueue(clock: clock)
    var shown: [String?] = []
    sut.onChange = { shown.append($0) }

    sut.enqueue("It's a match with Zoë!")
    clock.advance(by: .seconds(9))
    #expect(sut.current == "It's a match with Zoë!")
    clock.advance(by: .seconds(1))

    try await waitUntil("the banner is dismissed") { sut.current == nil }
    #expect(shown == ["It's a match with Zoë!", nil])
  }

  @Test func bannersWait_andEachGetsItsFullTime() async throws {
    let clock = ManualClock()
    let sut = BannerQueue(clock: clock)
    var shown: [String?] = []
    sut.onChange = { shown.append($0) }

    sut.enqueue("first")
    clock.advance(by: .seconds(6))
    sut.enqueue("second")
    sut.enqueue("third")
    #expect(sut.waiting == ["second", "third"])
    clock.advance(by: .seconds(4))
    try await waitUntil("the first ran its 10 s and the second shows") { sut.current == "second" }
    clock.advance(by: .seconds(9))
    #expect(sut.current == "second", "the second is not cut short")
    clock.advance(by: .seconds(1))
    try await waitUntil("the third shows after the second's 10 s") { sut.current == "third" }
    clock.advance(by: .seconds(10))

    try await waitUntil("the last banner is dismissed") { sut.current == nil }
    #expect(shown == ["first", "second", "third", nil])
  }

  @Test func aBannerShownLate_stillEndsTenSecondsAfterItWasShown() async throws {
    let clock = ManualClock()
    let sut = BannerQueue(clock: clock)

    // The clock moves past the deadline before the banner's timer task has had any chance to
    // run: the deadline was taken when the banner was shown, so the banner still ends (a
    // relative sleep would start counting at 11 s and end at 21 s).
    sut.enqueue("late")
    clock.advance(by: .seconds(11))

    try await waitUntil("the banner is dismissed at its deadline") { sut.current == nil }
  }
}
