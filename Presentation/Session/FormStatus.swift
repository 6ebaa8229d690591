/// Where a sign-in or sign-up form stands.
public enum FormStatus: Equatable, Sendable {
  case editing
  /// The input broke a rule; nothing was sent. One sentence per broken rule.
  case invalid([String])
  case submitting
  case failed(UserFacingError)
  case succeeded

  public var isSubmitting: Bool { self == .submitting }
}
