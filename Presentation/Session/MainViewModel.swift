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
    /// A session is kept here but the server cannot be reached to check it: the home opens
    /// offline, on what this machine has, and goes online by itself (`reconnect()`).
    case signedInOffline(RemoteUserSession, reason: UserFacingError)
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
      let failure = UserFacingError(error)
      onBoardingViewModel = nil
      if failure.retryHelps, let stored = try? await repository.storedUserSession() {
        state = .signedInOffline(stored, reason: failure)
      } else {
        state = .launchFailed(failure)
      }
    }
  }

  /// Checks the kept session with the server again, from the offline home: signed in when
  /// it answers, back to the onboarding when it rejects the session, still offline (false)
  /// while it cannot be reached.
  @discardableResult
  public func reconnect() async -> Bool {
    guard case .signedInOffline(let account, _) = state else { return true }
    do {
      if let session = try await repository.loadUserSession() {
        signedIn(to: session)
      } else {
        showOnboarding(notice: nil)
      }
      return true
    } catch SessionError.expired(let username) {
      showOnboarding(notice: .sessionExpired(username: username))
      return true
    } catch {
      // Still out of reach (the server, or the keyring): the home stays offline, with the
      // newest reason.
      let failure = UserFacingError(error)
      if state != .signedInOffline(account, reason: failure) {
        state = .signedInOffline(account, reason: failure)
      }
      return false
    }
  }

  /// Asks the server about the kept session, from a home whose server went out of reach:
  /// an offline start tries to go online (`reconnect()`); an online home learns whether the
  /// server answers again, which the request itself reports to the session's reachability.
  /// Returns false when the server rejected the session (the home should end).
  public func checkServer() async -> Bool {
    switch state {
    case .signedInOffline:
      await reconnect()
      return true
    case .signedIn:
      do {
        _ = try await repository.loadUserSession()
      } catch SessionError.expired {
        return false
      } catch {
        // Out of reach still, or the keyring: the reachability has been told what it needs.
      }
      return true
    case .launching, .onboarding, .launchFailed:
      return true
    }
  }

  /// The account whose home is open, online or offline.
  public var signedInAccount: RemoteUserSession? {
    switch state {
    case .signedIn(let session): session.remoteSession
    case .signedInOffline(let account, _): account
    case .launching, .onboarding, .launchFailed: nil
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
