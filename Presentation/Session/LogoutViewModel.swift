import Domain

/// Signing out: revoke on the server, then forget locally; or forget locally only. Either
/// way the account's local data goes with its session (`SignOutUseCase`).
@MainActor
public final class LogoutViewModel {
  public enum State: Equatable, Sendable {
    case idle
    case signingOut
    case finished(SignOutReport)
    /// Nothing was deleted: the person is still signed in and can try again.
    case failed(UserFacingError)
  }

  public private(set) var state = State.idle {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  /// What the view model calls, made in the composition root.
  public struct Actions: Sendable {
    /// `SignOutUseCase.execute(revokingOnServer:)` in the app.
    public var signOut: @Sendable (_ revokingOnServer: Bool) async throws -> SignOutReport

    public init(
      signOut: @escaping @Sendable (_ revokingOnServer: Bool) async throws -> SignOutReport
    ) {
      self.signOut = signOut
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  public func logout(revokingOnServer: Bool) async {
    guard state != .signingOut else { return }
    state = .signingOut
    do {
      state = .finished(try await actions.signOut(revokingOnServer))
    } catch {
      state = .failed(Self.stillSignedIn(UserFacingError(error)))
    }
  }

  /// A failed sign-out says that the session was kept and how to get rid of it anyway.
  /// A keyring failure is shown as it is: `--local` needs the keyring too.
  private static func stillSignedIn(_ error: UserFacingError) -> UserFacingError {
    guard !error.keyringIsCause else { return error }
    return UserFacingError(
      code: error.code, message: "Could not sign out: \(error.message)",
      hint:
        "You are still signed in. Try again, or run `app logout --local` to delete the session from this machine only.",
      remedy: error.remedy)
  }
}
