import Foundation
import Presentation
import Testing

/// Times in the person's time zone: a clock time for today, the date for another day, and
/// ISO 8601 with its offset in JSON.
@Suite(.timeLimit(.minutes(1))) struct TimeTextTests {
  private let paris = TimeZone(identifier: "Europe/Paris")!
  /// 2026-12-05T14:45:56Z: 15:45:56 in Paris (UTC+1 in winter).
  private let instant = Date(timeIntervalSince1970: 1_796_481_956)

  @Test func aTimeOfToday_isItsClockTime_inTheLocalZone() {
    #expect(TimeText.clock(instant, now: instant, in: paris) == "15:45:56")
    #expect(TimeText.clock(instant, now: instant, in: TimeZone(identifier: "UTC")!) == "14:45:56")
  }

  @Test func aTimeOfAnotherDay_hasItsDate() {
    let dayBefore = instant.addingTimeInterval(-86_400)
    #expect(TimeText.clock(instant, now: dayBefore, in: paris) == "2026-12-05 15:45:56")
  }

  @Test func json_isISO8601_withTheOffsetWrittenOut_andReadsBackToTheSameInstant() throws {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    let newYork = TimeZone(identifier: "America/New_York")!

    #expect(TimeText.iso8601(instant, in: paris) == "2026-12-05T15:45:56+01:00")
    #expect(TimeText.iso8601(instant, in: tokyo) == "2026-12-05T23:45:56+09:00")
    #expect(TimeText.iso8601(instant, in: newYork) == "2026-12-05T09:45:56-05:00")
    #expect(
      TimeText.iso8601(instant, in: TimeZone(identifier: "UTC")!) == "2026-12-05T14:45:56+00:00")
    let read = try Date(TimeText.iso8601(instant, in: newYork), strategy: .iso8601)
    #expect(read == instant)
  }
}
