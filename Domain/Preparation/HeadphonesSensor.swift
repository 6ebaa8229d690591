/// Tells whether headphones are connected: the current state first, then every change.
public protocol HeadphonesSensor: Sendable {
  func connectionChanges() -> AsyncStream<Bool>
}
