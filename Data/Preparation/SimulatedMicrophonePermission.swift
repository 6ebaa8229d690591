import Domain

/// The answer to the microphone prompt, given up front (`app prepare --microphone denied`),
/// in place of the system's dialog.
public struct SimulatedMicrophonePermission: MicrophonePermission {
  private let answer: MicrophoneAccess

  public init(answer: MicrophoneAccess) {
    self.answer = answer
  }

  public func request() async -> MicrophoneAccess { answer }
}
