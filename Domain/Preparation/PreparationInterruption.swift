/// A screen that interrupts the user because an accepted requirement no longer holds.
/// The seed's three interruptions with their priorities: a higher one replaces a lower one
/// at once; a lower one waits while a higher one is on screen.
public enum PreparationInterruption: String, CaseIterable, Sendable {
  case headphones
  case systemVolume
  case loudness

  public enum Priority: Int, Comparable, Sendable {
    case low = 1
    case medium = 2
    case high = 3

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public var priority: Priority {
    switch self {
    case .headphones: .high
    case .systemVolume: .medium
    case .loudness: .low
    }
  }

  /// The requirement whose violation raises this interruption.
  public var requirement: PreparationRequirement {
    switch self {
    case .headphones: .headphones
    case .systemVolume: .systemVolume
    case .loudness: .quiet
    }
  }
}
