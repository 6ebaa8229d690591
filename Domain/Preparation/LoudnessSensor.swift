/// The ambient noise in dB(A), measured through the microphone: the current level first,
/// then every change.
public protocol LoudnessSensor: Sendable {
  func noiseChanges() -> AsyncStream<Double>
}
