/// Asks for microphone access (the system asks the user once and remembers).
public protocol MicrophonePermission: Sendable {
  func request() async -> MicrophoneAccess
}

/// The user's answer to the system's microphone prompt. Without it the loudness sensor
/// cannot be read, so a preparation session is only built once the answer is known.
public enum MicrophoneAccess: Sendable {
  case granted
  case denied
}
