/// The system output volume in percent: the current level first, then every change.
public protocol SystemVolumeSensor: Sendable {
  func volumeChanges() -> AsyncStream<Int>
}
