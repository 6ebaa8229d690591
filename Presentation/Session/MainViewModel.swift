import Domain

/// The top of the seed's hierarchy: decides between the launch screen, onboarding and the
/// signed-in app, and is the long-lived `SignedInResponder` that sign-in and sign-up report to.
@MainActor
public final class MainViewModel: SignedInResponder, SessionEndedResponder {
  public enum State: Equatable, Sendable {
    case launching
    /// Nobody is signed in; `notice` says why when it is news (an expired session).
    case onboarding(notice: OnboardingNotice?)
    case signedIn(UserSession)
    /// The session could not be checked (server down, keyring unavailable): the original
    /// left people on the launch screen here; this state says what happened instead.
    case launchFailed(UserFacingError)
  }

  public private(set) var state: State = .launching {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?
  /// Present while `state` is `.onboarding`.
  public private(set) var onBoardingViewModel: OnBoardingViewModel?

  private let repository: any UserSessionRepository

  public init(repository: any UserSessionRepository) {
    self.repository = repository
  }

  /// Checks the stored session with the server and moves to the matching screen.
  public func launch() async {
    state = .launching
    do {
      if let session = try await repository.loadUserSession() {
        signedIn(to: session)
      } else {
        showOnboarding(notice: nil)
      }
    } catch SessionError.expired(let username) {
      showOnboarding(notice: .sessionExpired(username: username))
    } catch {
      onBoardingViewModel = nil
      state = .launchFailed(UserFacingError(error))
    }
  }

  public func signedIn(to userSession: UserSession) {
    onBoardingViewModel = nil
    state = .signedIn(userSession)
  }

  public func notSignedIn() {
    showOnboarding(notice: nil)
  }

  /// The server rejected the session while the person was in the app (a 401): back to the
  /// onboarding, saying why.
  public func sessionEnded(username: String) {
    showOnboarding(notice: .sessionExpired(username: username))
  }

  private func showOnboarding(notice: OnboardingNotice?) {
    onBoardingViewModel = OnBoardingViewModel(repository: repository, signedInResponder: self)
    state = .onboarding(notice: notice)
  }
}

/// News shown on top of the onboarding screens.
public enum OnboardingNotice: Equatable, Sendable {
  case sessionExpired(username: String)
}
