/// The three sensors a preparation session observes, as one stream per requirement.
public struct PreparationSensors: Sendable {
  let headphones: any HeadphonesSensor
  let systemVolume: any SystemVolumeSensor
  let loudness: any LoudnessSensor

  public init(
    headphones: any HeadphonesSensor, systemVolume: any SystemVolumeSensor,
    loudness: any LoudnessSensor
  ) {
    self.headphones = headphones
    self.systemVolume = systemVolume
    self.loudness = loudness
  }

  /// Subscribes to the sensor behind `requirement` now, so that no change made after this call
  /// is missed, and hands each reading to `handle` on a task of its own. Cancelling the task
  /// ends the subscription.
  func observe(
    _ requirement: PreparationRequirement,
    handle: @escaping @Sendable (SensorReading) async -> Void
  ) -> Task<Void, Never> {
    switch requirement {
    case .headphones:
      Self.forward(headphones.connectionChanges(), to: handle) { .headphones(connected: $0) }
    case .quiet: Self.forward(loudness.noiseChanges(), to: handle) { .noise(decibels: $0) }
    case .systemVolume:
      Self.forward(systemVolume.volumeChanges(), to: handle) { .systemVolume(percent: $0) }
    }
  }

  /// What the sensor behind `requirement` says right now (its stream starts with it).
  func currentReading(of requirement: PreparationRequirement) async -> SensorReading? {
    switch requirement {
    case .headphones:
      await headphones.connectionChanges().first { _ in true }.map { .headphones(connected: $0) }
    case .quiet: await loudness.noiseChanges().first { _ in true }.map { .noise(decibels: $0) }
    case .systemVolume:
      await systemVolume.volumeChanges().first { _ in true }.map { .systemVolume(percent: $0) }
    }
  }

  private static func forward<Value: Sendable>(
    _ values: AsyncStream<Value>, to handle: @escaping @Sendable (SensorReading) async -> Void,
    as reading: @escaping @Sendable (Value) -> SensorReading
  ) -> Task<Void, Never> {
    Task {
      for await value in values { await handle(reading(value)) }
    }
  }
}
