import Backend
import Foundation
import Synchronization

/// Test doubles for the embedded backend's dependencies: a clock a test moves by hand and
/// randomness that repeats.
public enum TestBackend {
  /// An embedded backend in memory, with a settable clock and counting "randomness".
  /// `clock` is what its long polls wait on; tests that poll pass a `TestClock`.
  public static func make(
    now: TestNow = TestNow(), clock: any Clock<Duration> = ContinuousClock(),
    likeInterval: ClosedRange<Double> = DemoPeople.defaultLikeInterval,
    limits: SignInLimits = SignInLimits()
  ) throws -> APIBackend {
    let counter = Mutex<UInt8>(0)
    return try APIBackend.inMemory(
      now: { now.date },
      randomBytes: { count in
        counter.withLock { value in
          value &+= 1
          return [UInt8](repeating: value, count: count)
        }
      }, clock: clock, demo: DemoPeople(likeInterval: likeInterval), limits: limits)
  }
}

/// A "now" a test sets and advances.
public final class TestNow: Sendable {
  private let current: Mutex<Date>

  public init(_ date: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    current = Mutex(date)
  }

  public var date: Date { current.withLock { $0 } }

  public func advance(by seconds: TimeInterval) {
    current.withLock { $0 = $0.addingTimeInterval(seconds) }
  }
}
