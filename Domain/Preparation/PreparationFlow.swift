/// The chain of requirements as a state machine that goes both ways: `accept` moves on,
/// `back` returns to the last accepted requirement, which is then no longer accepted, so it
/// is no longer observed either.
public struct PreparationFlow: Equatable, Sendable {
  /// The requirements in the order the user meets them.
  public static let order: [PreparationRequirement] = [.headphones, .quiet, .systemVolume]

  /// Accepted requirements, in order; the user stands on the one after the last.
  public private(set) var accepted: [PreparationRequirement] = []
  /// Accepted without their check (`test anyway`): never observed.
  public private(set) var skipped: Set<PreparationRequirement> = []

  public init() {}

  public var stage: PreparationStage {
    accepted.count < Self.order.count ? .requirement(Self.order[accepted.count]) : .hearingCheck
  }

  /// The requirements whose violation interrupts the user.
  public var observed: Set<PreparationRequirement> {
    Set(accepted).subtracting(skipped)
  }

  /// Accepts the current requirement. The caller has checked that it holds.
  /// Returns false on the hearing check, where nothing is left to accept.
  public mutating func accept() -> Bool {
    guard case .requirement(let requirement) = stage else { return false }
    accepted.append(requirement)
    return true
  }

  /// Accepts the quiet requirement without checking or observing it. Only the quiet
  /// requirement can be skipped: the check cannot run without headphones or a calibrated
  /// volume, but it can run, less precisely, in a noisy room.
  public mutating func skipQuietCheck() -> Bool {
    guard stage == .requirement(.quiet) else { return false }
    accepted.append(.quiet)
    skipped.insert(.quiet)
    return true
  }

  /// Keeps the quiet requirement accepted but stops observing it (`test anyway` on the
  /// loudness interruption).
  public mutating func stopObservingQuiet() {
    guard accepted.contains(.quiet) else { return }
    skipped.insert(.quiet)
  }

  /// Returns to the last accepted requirement. Returns false on the first requirement.
  public mutating func back() -> Bool {
    guard let left = accepted.popLast() else { return false }
    skipped.remove(left)
    return true
  }
}
