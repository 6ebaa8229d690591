import Domain

/// The signed-in app (the seed's UserSessionView and its AppView): which feature is on
/// screen, the unread likes badge, and the realtime watch that runs whichever screen the
/// person is on, putting matches on the banner line. When the person logs out or the server
/// rejects the session, it hands back to `MainViewModel` through `SessionEndedResponder`.
@MainActor
public final class HomeViewModel {
  public enum Screen: String, CaseIterable, Equatable, Sendable {
    case home
    case likes
    case mutuals
    case messages
    case push
    case preparation
  }

  public struct State: Equatable, Sendable {
    public var screen = Screen.home
    /// The unread likes badge the prompt shows.
    public var unread = 0
    /// The banner on show, whatever the screen.
    public var banner: String?
    /// Why realtime stopped for good, when it was not the session (a sign-out ends it quietly).
    public var realtimeFailure: UserFacingError?
    public var isWatching = false
  }

  public let session: UserSession
  public let center: NotificationCenterViewModel
  public private(set) var state = State() {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?
  /// A new like or a match as it arrives, for the front end to print above the prompt.
  public var onRealtime: ((LikesWatchViewModel.Update) -> Void)?

  private weak var responder: (any SessionEndedResponder)?
  /// The watch under way, numbered so that one that ends after a restart is told apart.
  private var realtime: (run: Int, task: Task<Void, Never>)?
  private var runs = 0

  public init(
    session: UserSession, center: NotificationCenterViewModel, unread: Int,
    responder: any SessionEndedResponder
  ) {
    self.session = session
    self.center = center
    self.responder = responder
    state.unread = unread
  }

  public func open(_ screen: Screen) {
    state.screen = screen
  }

  public func goHome() {
    state.screen = .home
  }

  /// The first page of likes was shown, and the badge with it.
  public func likesSeen(unread: Int) {
    state.unread = unread
  }

  /// Starts watching for new likes and matches, until `stopRealtime()`, a sign-out or the
  /// end of the session.
  public func startRealtime() {
    guard realtime == nil else { return }
    center.onWatchUpdate = { [weak self] update in self?.arrived(update) }
    center.banners.onChange = { [weak self] banner in self?.state.banner = banner }
    state.isWatching = true
    state.realtimeFailure = nil
    let watch = center.watch
    runs += 1
    let run = runs
    realtime = (
      run,
      Task { [weak self] in
        await watch.run()
        self?.realtimeEnded(run)
      }
    )
  }

  public func stopRealtime() {
    realtime?.task.cancel()
    realtime = nil
    center.banners.stop()
    state.isWatching = false
  }

  /// A request on any screen found the session rejected (a 401): back to the onboarding.
  public func sessionRejected() {
    stopRealtime()
    responder?.sessionEnded(username: session.remoteSession.username)
  }

  /// The person signed out.
  public func signedOut() {
    stopRealtime()
    responder?.notSignedIn()
  }

  private func arrived(_ update: LikesWatchViewModel.Update) {
    if case .newLike(_, let unread) = update { state.unread = unread }
    onRealtime?(update)
  }

  private func realtimeEnded(_ run: Int) {
    guard realtime?.run == run else { return }
    realtime = nil
    state.isWatching = false
    guard let failure = center.watch.state.failure else { return }
    if failure.signingInHelps {
      sessionRejected()
    } else {
      state.realtimeFailure = failure
    }
  }
}
