/// A moment on one of TestSupport's clocks (`InstantClock`, `ManualClock`): the time since
/// the clock started.
public struct OffsetInstant: InstantProtocol, Sendable {
  public let offset: Duration

  public init(offset: Duration) { self.offset = offset }

  public func advanced(by duration: Duration) -> OffsetInstant {
    OffsetInstant(offset: offset + duration)
  }

  public func duration(to other: OffsetInstant) -> Duration { other.offset - offset }

  public static func < (lhs: OffsetInstant, rhs: OffsetInstant) -> Bool {
    lhs.offset < rhs.offset
  }
}
