/// Where a form stands: sign-in, sign-up or compose. `Success` is what a submission that
/// worked gives the form: the signed-in profile, or the recipient's messages after a send.
public enum FormStatus<Success: Equatable & Sendable>: Equatable, Sendable {
  case editing
  /// The input broke a rule; nothing was sent. One sentence per broken rule.
  case invalid([String])
  case submitting
  case failed(UserFacingError)
  case succeeded(Success)

  public var isSubmitting: Bool { self == .submitting }
}
