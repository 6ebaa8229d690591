import Clocks
import Presentation
import Testing

@MainActor
@Suite struct BannerQueueTests {
  @Test func aBanner_isDismissedAfterTenSeconds_onTheClock() async {
    let clock = TestClock()
    let sut = BannerQueue(clock: clock)
    var shown: [String?] = []
    sut.onChange = { shown.append($0) }

    sut.enqueue("It's a match with Zoë!")
    await clock.advance(by: .seconds(9))
    #expect(sut.current == "It's a match with Zoë!")
    await clock.advance(by: .seconds(1))

    #expect(sut.current == nil)
    #expect(shown == ["It's a match with Zoë!", nil])
  }

  @Test func bannersWait_andEachGetsItsFullTime() async {
    let clock = TestClock()
    let sut = BannerQueue(clock: clock)
    var shown: [String?] = []
    sut.onChange = { shown.append($0) }

    sut.enqueue("first")
    await clock.advance(by: .seconds(6))
    sut.enqueue("second")
    sut.enqueue("third")
    #expect(sut.waiting == ["second", "third"])
    await clock.advance(by: .seconds(4))
    #expect(sut.current == "second", "the first ran its 10 s, not cut short")
    await clock.advance(by: .seconds(9))
    #expect(sut.current == "second")
    await clock.advance(by: .seconds(1))
    #expect(sut.current == "third")
    await clock.advance(by: .seconds(10))

    #expect(shown == ["first", "second", "third", nil])
  }
}
