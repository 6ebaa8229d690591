/// One condition the hearing check needs, in the order the user meets them.
public enum PreparationRequirement: String, CaseIterable, Sendable {
  case headphones
  case quiet
  case systemVolume

  /// The interruption shown when this requirement, once accepted, stops holding.
  public var interruption: PreparationInterruption {
    switch self {
    case .headphones: .headphones
    case .quiet: .loudness
    case .systemVolume: .systemVolume
    }
  }
}
