import Foundation

/// Times as the person reads them: in the local time zone (`TZ`, else the system's), never
/// in UTC unless that is where the person is. Text says a time of today as `17:45:56` and
/// another day's with its date; JSON has ISO 8601 with the offset written out
/// (`2026-12-05T17:45:56+01:00`), which reads back to the same instant anywhere.
///
/// Written from the calendar's parts rather than through `DateFormatter`, which is neither
/// `Sendable` nor cheap to make on Linux, for the few fixed shapes needed here.
public enum TimeText {
  /// `17:45:56` on the day of `now`, otherwise `2026-12-06 17:45:56`.
  public static func clock(_ date: Date, now: Date, in zone: TimeZone = .current) -> String {
    let time = parts(of: date, in: zone)
    let today = parts(of: now, in: zone)
    let clock = "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
    guard (time.year, time.month, time.day) != (today.year, today.month, today.day) else {
      return clock
    }
    return "\(time.year)-\(two(time.month))-\(two(time.day)) \(clock)"
  }

  /// `2026-12-05 17:45:56`: the local date and time, for a time read later, when "today"
  /// may no longer be the day it was written.
  public static func dateAndClock(_ date: Date, in zone: TimeZone = .current) -> String {
    let time = parts(of: date, in: zone)
    return "\(time.year)-\(two(time.month))-\(two(time.day)) "
      + "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
  }

  /// `2026-12-05T17:45:56+01:00`: the local time, with its offset from UTC.
  public static func iso8601(_ date: Date, in zone: TimeZone = .current) -> String {
    let time = parts(of: date, in: zone)
    let offset = zone.secondsFromGMT(for: date)
    let sign = offset < 0 ? "-" : "+"
    let minutes = abs(offset) / 60
    return "\(time.year)-\(two(time.month))-\(two(time.day))T"
      + "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
      + "\(sign)\(two(minutes / 60)):\(two(minutes % 60))"
  }

  private struct Parts {
    let year, month, day, hour, minute, second: Int
  }

  private static func parts(of date: Date, in zone: TimeZone) -> Parts {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: date)
    return Parts(
      year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0,
      hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
  }

  private static func two(_ number: Int) -> String {
    number < 10 ? "0\(number)" : "\(number)"
  }
}
