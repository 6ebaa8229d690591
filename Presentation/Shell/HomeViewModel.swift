import Domain

/// The signed-in app (the seed's UserSessionView and its AppView): which feature is on
/// screen, the unread likes badge, and the realtime watch that runs whichever screen the
/// person is on, handing new likes and matches to the front end (`onRealtime`). When the person logs out or the server
/// rejects the session, it hands back to `MainViewModel` through `SessionEndedResponder`.
@MainActor
public final class HomeViewModel {
  public enum Screen: String, CaseIterable, Equatable, Sendable {
    case home
    case likes
    case mutuals
    case messages
    case people
    case push
    case preparation
  }

  public struct State: Equatable, Sendable {
    public var screen = Screen.home
    /// The unread likes badge the prompt shows.
    public var unread = 0
    /// Why realtime stopped for good, when it was not the session (a sign-out ends it quietly).
    public var realtimeFailure: UserFacingError?
    /// Opened with a kept session while the server could not be reached: what this machine
    /// has (cached pages, `session`, `prepare`) works, and the home goes online by itself.
    public var isOffline = false
    /// The session's reachability says the server is offline (`ServerReachability`), here
    /// since the home opened or since a failure mid-session.
    public var serverOffline = false
    /// The likes page last shown, for `next`, `prev` and the ids Tab offers.
    public var likesOnScreen: LikesOnScreen?
    /// How far the likes list moved since its first page was shown: +1 for each like that
    /// arrived, -1 for each one answered. The next page asked for is moved as far, so paging
    /// on neither repeats nor skips anybody (`LikesPageRequest.shift`).
    public var likesShift = 0
    /// Whose messages were last listed, for the names Tab offers.
    public var peopleOnScreen: [String] = []
    /// The people page last shown: `like N`, `pass N` and `block N` name its rows.
    public var peopleToMeet: [LikedUser] = []
    /// Messages from matches that arrived since the messages were last listed: the badge
    /// counts them with the new likes.
    public var unreadMessages = 0
  }

  public struct LikesOnScreen: Equatable, Sendable {
    public var page: Int
    public var hasNextPage: Bool
    /// The short ids the page shows.
    public var ids: [String]
    /// For a page past the end, the last page that holds anybody (0: nobody).
    public var lastPage: Int? = nil
  }

  /// Whose home this is, online or offline.
  public let account: RemoteUserSession
  /// Who the server says the person is; nil until it has answered (an offline start).
  public private(set) var profile: UserProfile?
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
    account = session.remoteSession
    profile = session.profile
    self.center = center
    self.responder = responder
    state.unread = unread
  }

  /// The home of a kept session the server could not confirm: offline until `cameOnline`.
  public init(
    offline account: RemoteUserSession, center: NotificationCenterViewModel, unread: Int,
    responder: any SessionEndedResponder
  ) {
    self.account = account
    self.center = center
    self.responder = responder
    state.unread = unread
    state.isOffline = true
  }

  /// The server confirmed the session: the home is online, with the profile it sent.
  public func cameOnline(_ session: UserSession) {
    guard session.remoteSession == account else { return }
    profile = session.profile
    state.isOffline = false
  }

  /// The session's reachability changed.
  public func reachabilityChanged(_ status: ServerReachability.Status) {
    let offline = status == .offline
    if state.serverOffline != offline { state.serverOffline = offline }
  }

  /// Whether the prompt says offline: the session is not confirmed yet, or the server is out
  /// of reach.
  public var showsOffline: Bool { state.isOffline || state.serverOffline }

  public func open(_ screen: Screen) {
    state.screen = screen
  }

  public func goHome() {
    state.screen = .home
  }

  /// A page of likes was shown, with the badge as it now stands (cleared when it was page 1).
  public func likesShown(_ page: LikesPage, unread: Int) {
    state.screen = .likes
    // The first page shows the list as it is now: nothing has moved since.
    if page.number == 1 { state.likesShift = 0 }
    state.unread = unread
    state.likesOnScreen = LikesOnScreen(
      page: page.number, hasNextPage: page.nextCursor != nil,
      ids: page.items.map { LikesViewModel.shortID($0.id) }, lastPage: page.lastPage)
  }

  /// A page of people to meet was shown.
  public func meetingPeople(_ page: PeoplePage) {
    state.screen = .people
    state.peopleToMeet = page.people
  }

  /// The person on row `row` of the people shown (from 1), when `row` is a row number and
  /// people are on screen.
  public func personOnRow(_ row: String) -> LikedUser? {
    guard state.screen == .people, row.count <= 3, let number = Int(row),
      state.peopleToMeet.indices.contains(number - 1)
    else { return nil }
    return state.peopleToMeet[number - 1]
  }

  /// Everybody's messages were listed.
  public func peopleShown(_ names: [String]) {
    var next = state
    next.screen = .messages
    next.peopleOnScreen = names
    next.unreadMessages = 0
    state = next
  }

  /// The page `move` leads to from the one on screen, or why there is none.
  public func page(after move: LikesPageMove) -> Result<Int, UserFacingError> {
    let shown = state.likesOnScreen
    switch move {
    case .page(let number):
      return .success(number)
    case .next:
      guard let shown else { return .success(1) }
      guard shown.hasNextPage else {
        let message =
          switch shown.lastPage {
          case let last? where last > 0:
            "Page \(shown.page) is past the end: the last page is \(last)."
          case 0?: "Page \(shown.page) is past the end: nobody has liked you yet."
          default: "Page \(shown.page) is the last page."
          }
        return .failure(UserFacingError(code: "last_page", message: message, remedy: .correctInput))
      }
      return .success(shown.page + 1)
    case .previous:
      // Back from past the end is the last page there is.
      if let last = shown?.lastPage { return .success(max(last, 1)) }
      guard let shown, shown.page > 1 else {
        return .failure(
          UserFacingError(
            code: "first_page", message: "This is the first page.", remedy: .correctInput))
      }
      return .success(shown.page - 1)
    }
  }

  /// The prompt: who, where, the screen and the unread badge, as in
  /// `alice@embedded likes (3 new)> `.
  public func prompt(server: String) -> String {
    var text = "\(account.username)@\(server)"
    if showsOffline { text += " offline" }
    if state.screen != .home { text += " \(state.screen.rawValue)" }
    let badge = state.unread + state.unreadMessages
    if badge > 0 { text += " (\(badge) new)" }
    return TerminalText.visibleOnOneLine(text) + "> "
  }

  /// What Tab may offer now.
  public var completionContext: ShellCompletion.Context {
    ShellCompletion.Context(
      signedIn: true, likeIDs: state.likesOnScreen?.ids ?? [], people: state.peopleOnScreen)
  }

  /// Starts watching for new likes and matches, until `stopRealtime()`, a sign-out or the
  /// end of the session.
  public func startRealtime() {
    guard realtime == nil else { return }
    center.onWatchUpdate = { [weak self] update in self?.arrived(update) }
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
  }

  /// A request on any screen found the session rejected (a 401): back to the onboarding.
  public func sessionRejected() {
    stopRealtime()
    responder?.sessionEnded(username: account.username)
  }

  /// The person signed out.
  public func signedOut() {
    stopRealtime()
    responder?.notSignedIn()
  }

  /// A like on the list was answered (liked back or skipped): it left the list.
  public func likeAnswered() {
    if state.likesOnScreen != nil { state.likesShift -= 1 }
  }

  private func arrived(_ update: LikesWatchViewModel.Update) {
    switch update {
    case .newLike(_, let unread):
      var next = state
      next.unread = unread
      if next.likesOnScreen != nil { next.likesShift += 1 }
      state = next
    case .unreadChanged(let unread):
      state.unread = unread
    case .message:
      state.unreadMessages += 1
    case .match, .unmatched, .interrupted, .resumed, .notKept:
      break
    }
    onRealtime?(update)
  }

  /// The badge as it now stands, when it changed other than by a like (the account was
  /// confirmed a new one).
  public func unreadChanged(_ unread: Int) {
    if state.unread != unread { state.unread = unread }
  }

  private func realtimeEnded(_ run: Int) {
    guard realtime?.run == run else { return }
    realtime = nil
    guard let failure = center.watch.state.failure else { return }
    if failure.signingInHelps {
      sessionRejected()
    } else {
      state.realtimeFailure = failure
    }
  }
}
