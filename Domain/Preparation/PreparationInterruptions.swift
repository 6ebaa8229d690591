/// Which interruptions are active and which one is on screen: the priority and dismissal
/// rules as a pure state machine. Timing (the 2-second dismissal) is the session's job;
/// this type only records that an interruption is satisfied and waiting to be dismissed.
///
/// Every interruption keeps its own status, so two satisfied interruptions wait for their
/// own dismissals (the original kept one pending dismissal and overwrote it).
public struct PreparationInterruptions: Equatable, Sendable {
  public enum Status: Equatable, Sendable {
    /// The requirement does not hold.
    case violated
    /// The requirement holds again; the interruption goes once its dismissal is due.
    case satisfied
  }

  public private(set) var active: [PreparationInterruption: Status] = [:]

  public init() {}

  /// The interruption on screen: the active one with the highest priority. Any lower active
  /// interruption waits behind it.
  public var presented: PreparationInterruption? {
    active.keys.max { $0.priority < $1.priority }
  }

  public var isEmpty: Bool { active.isEmpty }

  /// The requirement behind `interruption` stopped holding. Returns true when this cancels a
  /// dismissal that was waiting.
  public mutating func violate(_ interruption: PreparationInterruption) -> Bool {
    let wasSatisfied = active[interruption] == .satisfied
    active[interruption] = .violated
    return wasSatisfied
  }

  /// The requirement behind `interruption` holds. Returns true when a dismissal must now be
  /// scheduled (the interruption was violated); false when it was not active at all.
  public mutating func satisfy(_ interruption: PreparationInterruption) -> Bool {
    guard active[interruption] == .violated else { return false }
    active[interruption] = .satisfied
    return true
  }

  /// The dismissal is due: a satisfied interruption goes. A violated one stays (its
  /// dismissal should have been cancelled; this keeps a late timer harmless).
  public mutating func dismiss(_ interruption: PreparationInterruption) {
    guard active[interruption] == .satisfied else { return }
    active[interruption] = nil
  }

  /// The requirement is no longer observed: its interruption goes at once, in any status.
  public mutating func remove(_ interruption: PreparationInterruption) {
    active[interruption] = nil
  }
}
