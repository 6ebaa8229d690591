import Foundation

/// The unblur rule as pure functions of the stored end date and now: everything is blurred
/// except while a window runs. A window that ended while the app was closed is simply in
/// the past, so the next run blurs again without anybody having to notice the end.
public enum UnblurWindow {
  /// The seed's unblur timer.
  public static let length: TimeInterval = 120

  public static func isOpen(endDate: Date?, now: Date) -> Bool {
    guard let endDate else { return false }
    return now < endDate
  }

  /// Whole seconds left, rounded up, or nil when no window runs.
  public static func secondsLeft(endDate: Date?, now: Date) -> Int? {
    guard let endDate, now < endDate else { return nil }
    return Int(endDate.timeIntervalSince(now).rounded(.up))
  }

  /// The end of a window that starts now.
  public static func endDate(startingAt now: Date) -> Date {
    now.addingTimeInterval(length)
  }
}
