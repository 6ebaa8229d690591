/// What one sensor says right now, and whether that meets its requirement.
public enum SensorReading: Equatable, Sendable {
  case headphones(connected: Bool)
  case noise(decibels: Double)
  case systemVolume(percent: Int)

  /// Quiet means at most this many dB(A): the ambient level of a quiet room. Louder
  /// backgrounds mask the faintest tones a hearing check plays.
  public static let quietNoiseLimit: Double = 40
  /// The system volume the hearing check is calibrated for.
  public static let requiredVolume = 50

  public var meetsItsRequirement: Bool {
    switch self {
    case .headphones(let connected): connected
    case .noise(let decibels): decibels <= Self.quietNoiseLimit
    case .systemVolume(let percent): percent == Self.requiredVolume
    }
  }
}

/// All three sensors at one moment: what `status` shows, and what a scripted front end waits
/// for the observers to have seen.
public struct SensorReadings: Equatable, Sendable {
  public var headphonesConnected: Bool
  public var noiseDecibels: Double
  public var systemVolumePercent: Int

  public init(headphonesConnected: Bool, noiseDecibels: Double, systemVolumePercent: Int) {
    self.headphonesConnected = headphonesConnected
    self.noiseDecibels = noiseDecibels
    self.systemVolumePercent = systemVolumePercent
  }

  public func reading(for requirement: PreparationRequirement) -> SensorReading {
    switch requirement {
    case .headphones: .headphones(connected: headphonesConnected)
    case .quiet: .noise(decibels: noiseDecibels)
    case .systemVolume: .systemVolume(percent: systemVolumePercent)
    }
  }
}
