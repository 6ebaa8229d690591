/// What a person asks of push, at the command line (`app push toggle`) or at the shell
/// (`push toggle`): the status, or a change the view model decides on.
public enum PushAction: String, CaseIterable, Equatable, Sendable {
  case status
  case on
  case off
  case toggle

  /// The change the push screen makes of it; nil for the status alone.
  public var change: PushRegistrationViewModel.Change? {
    switch self {
    case .status: nil
    case .on: .on
    case .off: .off
    case .toggle: .toggle
    }
  }
}
