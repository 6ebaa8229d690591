/// `app push --json`: the registration's state and, when the change failed, why, in one
/// document either way.
public struct PushDocument: Encodable, Sendable {
  public let registered: Bool
  public let registeredElsewhere: Bool
  @NullWhenAbsent public var info: String?
  /// What was done about a change an earlier command left half-done.
  @NullWhenAbsent public var earlierChange: String?
  public let deviceID: String
  @NullWhenAbsent public var error: ErrorDocument?

  public init(
    _ state: PushRegistrationViewModel.State, earlierChange: String?, deviceID: String,
    error: UserFacingError?
  ) {
    registered = state.isRegistered
    registeredElsewhere = state.isRegisteredElsewhere
    info = state.infoMessage
    self.earlierChange = earlierChange
    self.deviceID = deviceID
    self.error = error.map(ErrorDocument.init)
  }
}
