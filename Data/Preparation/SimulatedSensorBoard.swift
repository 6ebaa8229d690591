import Domain
import Synchronization

/// The stand-in for headphones, the volume buttons and the microphone (the seed's
/// `PermissionControlsContainerView`): the user sets each value by hand, and every
/// subscriber gets the current value first, then each change.
public final class SimulatedSensorBoard: HeadphonesSensor, SystemVolumeSensor, LoudnessSensor,
  Sendable
{
  /// Nothing is ready yet: headphones out, the volume low, an office's background noise.
  public static let startingReadings = SensorReadings(
    headphonesConnected: false, noiseDecibels: 52, systemVolumePercent: 30)

  private struct State {
    var readings: SensorReadings
    var headphones = Subscribers<Bool>()
    var volume = Subscribers<Int>()
    var noise = Subscribers<Double>()
  }

  private let state: Mutex<State>

  public init(readings: SensorReadings = startingReadings) {
    state = Mutex(State(readings: readings))
  }

  public var readings: SensorReadings { state.withLock { $0.readings } }

  /// How many streams are live across the three sensors: zero once every observer is gone.
  /// For the tests that check observers end; package access, as no product code asks.
  package var subscriberCount: Int {
    state.withLock { $0.headphones.count + $0.volume.count + $0.noise.count }
  }

  public func setHeadphones(connected: Bool) {
    state.withLock { state in
      guard state.readings.headphonesConnected != connected else { return }
      state.readings.headphonesConnected = connected
      state.headphones.send(connected)
    }
  }

  public func setSystemVolume(percent: Int) {
    state.withLock { state in
      guard state.readings.systemVolumePercent != percent else { return }
      state.readings.systemVolumePercent = percent
      state.volume.send(percent)
    }
  }

  public func setNoise(decibels: Double) {
    state.withLock { state in
      guard state.readings.noiseDecibels != decibels else { return }
      state.readings.noiseDecibels = decibels
      state.noise.send(decibels)
    }
  }

  public func connectionChanges() -> AsyncStream<Bool> {
    subscribe(\.headphones, current: \.headphonesConnected)
  }

  public func volumeChanges() -> AsyncStream<Int> {
    subscribe(\.volume, current: \.systemVolumePercent)
  }

  public func noiseChanges() -> AsyncStream<Double> {
    subscribe(\.noise, current: \.noiseDecibels)
  }

  /// Registers a subscriber and hands it the current value under one lock, so that no change
  /// falls between the two. The subscriber is removed when its consumer stops.
  private func subscribe<Value: Sendable>(
    _ subscribers: WritableKeyPath<State, Subscribers<Value>> & Sendable,
    current: KeyPath<SensorReadings, Value> & Sendable
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    let id = state.withLock { state in
      continuation.yield(state.readings[keyPath: current])
      return state[keyPath: subscribers].add(continuation)
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { $0[keyPath: subscribers].remove(id) }
    }
    return stream
  }
}

/// The continuations of one sensor's live streams.
private struct Subscribers<Value: Sendable> {
  private var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
  private var lastID = 0

  var count: Int { continuations.count }

  mutating func add(_ continuation: AsyncStream<Value>.Continuation) -> Int {
    lastID += 1
    continuations[lastID] = continuation
    return lastID
  }

  mutating func remove(_ id: Int) {
    continuations[id] = nil
  }

  /// Yielding never calls back into the board (only finishing would), so it is safe under
  /// the board's lock, which keeps every subscriber's values in the order they were set.
  func send(_ value: Value) {
    for continuation in continuations.values { continuation.yield(value) }
  }
}
