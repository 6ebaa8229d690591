/// What the toggle shows: registered or not, and a message when there is something to say.
public struct CombinedRegistration: Equatable, Sendable {
  public let isRegistered: Bool
  public let message: String?

  public init(isRegistered: Bool, message: String? = nil) {
    self.isRegistered = isRegistered
    self.message = message
  }

  public static let anotherDeviceMessage = "Registered on another device"
}

extension RegistrationStatus {
  /// The seed's rule: registered only when both backends say `.register`; push's
  /// `.anotherDevice` means unregistered here, with a message, whatever the vendor says.
  public static func combined(push: RegistrationStatus, vendor: RegistrationStatus)
    -> CombinedRegistration
  {
    switch (push, vendor) {
    case (.anotherDevice, _):
      CombinedRegistration(isRegistered: false, message: CombinedRegistration.anotherDeviceMessage)
    case (.register, .register):
      CombinedRegistration(isRegistered: true)
    default:
      CombinedRegistration(isRegistered: false)
    }
  }
}
