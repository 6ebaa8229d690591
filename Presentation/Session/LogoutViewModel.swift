import Domain

/// Signing out: revoke on the server, then forget locally; or forget locally only.
@MainActor
public final class LogoutViewModel {
  public enum State: Equatable, Sendable {
    case idle
    case signingOut
    case finished(LogoutOutcome)
    /// Nothing was deleted: the person is still signed in and can try again.
    case failed(UserFacingError)
  }

  public private(set) var state = State.idle {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  private let repository: any UserSessionRepository

  public init(repository: any UserSessionRepository) {
    self.repository = repository
  }

  public func logout(revokingOnServer: Bool) async {
    guard state != .signingOut else { return }
    state = .signingOut
    do {
      state = .finished(try await repository.logout(revokingOnServer: revokingOnServer))
    } catch {
      state = .failed(UserFacingError(error))
    }
  }
}
