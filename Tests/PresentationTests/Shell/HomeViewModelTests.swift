import Domain
import Presentation
import Synchronization
import TestSupport
import Testing

/// The long-lived app's navigation, as the seed's responders describe it: launch, the
/// onboarding, the home, and back to the onboarding on logout or a rejected session,
/// without leaving the process; realtime banners whatever the screen. On virtual time.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct HomeViewModelTests {
  @Test func launch_onboarding_home_logout_onboarding() async throws {
    let repository = UserSessionRepositoryStub()
    repository.loadResult.withLock { $0 = .success(nil) }
    repository.signInResult.withLock { $0 = .success(.alice) }
    let main = MainViewModel(repository: repository)

    await main.launch()
    #expect(main.state == .onboarding(notice: nil))
    let onboarding = try #require(main.onBoardingViewModel)
    onboarding.navigateToSignIn()
    await onboarding.signInViewModel.send(.usernameChanged("alice"))
    await onboarding.signInViewModel.send(.passwordChanged("correct horse"))
    await onboarding.signInViewModel.send(.signInTapped)
    #expect(main.state == .signedIn(.alice), "sign-in reported back through SignedInResponder")

    let home = makeHome(main, events: AsyncThrowingStream { _ in })
    home.open(.push)
    home.signedOut()

    #expect(main.state == .onboarding(notice: nil))
    #expect(main.onBoardingViewModel?.screen == .welcome)
  }

  @Test func aSessionRejectedWhileWatching_returnsToTheOnboarding_sayingWhy() async throws {
    let main = signedInMain()
    let (events, server) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let home = makeHome(main, events: events)
    home.open(.messages)

    home.startRealtime()
    server.finish(throwing: SessionError.expired(username: "alice"))

    try await waitUntil("the onboarding is back") { main.state != .signedIn(.alice) }
    #expect(main.state == .onboarding(notice: .sessionExpired(username: "alice")))
  }

  @Test func aRejectedRequestOnAnyScreen_returnsToTheOnboarding() {
    let main = signedInMain()
    let home = makeHome(main, events: AsyncThrowingStream { _ in })
    home.open(.likes)

    home.sessionRejected()

    #expect(main.state == .onboarding(notice: .sessionExpired(username: "alice")))
  }

  @Test func aMatchArrives_whileAnotherScreenIsOpen_andIsHandedToTheFrontEnd() async throws {
    let main = signedInMain()
    let (events, server) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let home = makeHome(main, events: events, unread: 2)
    var printed: [LikesWatchViewModel.Update] = []
    home.onRealtime = { printed.append($0) }
    home.open(.messages)
    home.startRealtime()

    server.yield(
      .event(.likedYouInserted(LikedUser(id: "n-1", userName: "Nia", avatarURL: nil)), seq: 1))
    server.yield(
      .event(.mutualMatch(LikedUser(id: "a-1", userName: "Ana", avatarURL: nil)), seq: 2))
    try await waitUntil("both arrive") { printed.count == 2 }

    #expect(home.state.screen == .messages, "the person stays where they are")
    #expect(printed.last == .match("It's a match with Ana!", id: "a-1"))
    #expect(home.state.unread == 3, "the badge went up with the new like")
    home.stopRealtime()
  }

  @Test func realtimeThatEndsForAWrongRequest_isShown_andTheSessionStays() async throws {
    let main = signedInMain()
    let (events, server) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let home = makeHome(main, events: events)

    home.startRealtime()
    server.finish(throwing: RemoteAPIError.server(status: 400, code: nil, description: nil))

    try await waitUntil("realtime stopped") { home.state.realtimeFailure != nil }
    #expect(home.state.realtimeFailure?.code == "server_error")
    #expect(main.state == .signedIn(.alice))
  }

  @Test func pagesMove_fromThePageOnScreen_andStopAtBothEnds() {
    let home = makeHome(signedInMain(), events: AsyncThrowingStream { _ in })
    #expect(home.page(after: .next) == .success(1), "nothing shown yet: the first page")
    #expect(home.page(after: .previous).isFailure)

    home.likesShown(Self.page(2, hasNext: true), unread: 0)
    #expect(home.state.screen == .likes)
    #expect(home.page(after: .next) == .success(3))
    #expect(home.page(after: .previous) == .success(1))
    #expect(home.page(after: .page(9)) == .success(9))

    home.likesShown(Self.page(3, hasNext: false), unread: 0)
    #expect(
      home.page(after: .next)
        == .failure(
          UserFacingError(
            code: "last_page", message: "Page 3 is the last page.", remedy: .correctInput)))
    #expect(home.completionContext.likeIDs == ["0000003a"], "Tab offers the ids on screen")
  }

  @Test func pastTheEnd_nextSaysWhichIsTheLast_andPrevGoesThere() {
    let home = makeHome(signedInMain(), events: AsyncThrowingStream { _ in })
    home.likesShown(
      LikesPage(
        number: 999, batchSize: 10, items: [], nextCursor: nil, source: .server, lastPage: 5),
      unread: 0)

    #expect(
      home.page(after: .next)
        == .failure(
          UserFacingError(
            code: "last_page", message: "Page 999 is past the end: the last page is 5.",
            remedy: .correctInput)))
    #expect(home.page(after: .previous) == .success(5), "back to the last page there is")

    home.likesShown(
      LikesPage(number: 4, batchSize: 10, items: [], nextCursor: nil, source: .server, lastPage: 0),
      unread: 0)
    #expect(home.page(after: .previous) == .success(1), "nobody yet: page 1")
  }

  @Test func theListMoves_withEachLikeThatArrives_andEachAnswered_untilPageOneIsShownAgain()
    async throws
  {
    let main = signedInMain()
    let (events, server) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let home = makeHome(main, events: events)
    home.likesShown(Self.page(1, hasNext: true), unread: 0)
    home.startRealtime()

    server.yield(
      .event(.likedYouInserted(LikedUser(id: "n-1", userName: "Nia", avatarURL: nil)), seq: 3))
    server.yield(
      .event(.likedYouInserted(LikedUser(id: "n-2", userName: "Noa", avatarURL: nil)), seq: 4))
    try await waitUntil("both likes arrived") { home.state.unread == 2 }
    #expect(home.state.likesShift == 2)
    home.likeAnswered()
    #expect(home.state.likesShift == 1)
    home.likesShown(Self.page(2, hasNext: true), unread: 2)
    #expect(home.state.likesShift == 1, "page 2 is still the moved list")
    home.likesShown(Self.page(1, hasNext: true), unread: 0)
    #expect(home.state.likesShift == 0, "page 1 shows the list as it is now")
    home.stopRealtime()
  }

  @Test func anOfflineHome_saysSoInItsPrompt_untilItComesOnline() {
    let main = signedInMain()
    let center = makeHome(main, events: AsyncThrowingStream { _ in }).center
    let home = HomeViewModel(
      offline: UserSession.alice.remoteSession, center: center, unread: 0, responder: main)
    #expect(home.prompt(server: "embedded") == "alice@embedded offline> ")
    #expect(home.profile == nil)

    home.cameOnline(.alice)

    #expect(home.prompt(server: "embedded") == "alice@embedded> ")
    #expect(home.profile == UserSession.alice.profile)
  }

  @Test func thePrompt_namesTheAccountServerScreenAndBadge() {
    let home = makeHome(signedInMain(), events: AsyncThrowingStream { _ in }, unread: 3)
    #expect(home.prompt(server: "embedded") == "alice@embedded (3 new)> ")

    home.likesShown(Self.page(1, hasNext: false), unread: 0)
    #expect(home.prompt(server: "127.0.0.1:8080") == "alice@127.0.0.1:8080 likes> ")

    home.peopleShown(["Ann", "bob"])
    #expect(home.prompt(server: "embedded") == "alice@embedded messages> ")
    #expect(home.completionContext.people == ["Ann", "bob"])
  }

  // MARK: - Helpers

  private static func page(_ number: Int, hasNext: Bool) -> LikesPage {
    LikesPage(
      number: number, batchSize: 1,
      items: [
        LikeItem(
          id: "000000\(number)a-rest-of-the-id", userName: "N\(number)", avatarURL: nil,
          isBlurred: true, isReadOnly: false)
      ], nextCursor: hasNext ? number + 1 : nil, source: .server)
  }

  private func signedInMain() -> MainViewModel {
    let main = MainViewModel(repository: UserSessionRepositoryStub())
    main.signedIn(to: .alice)
    return main
  }

  private func makeHome(
    _ main: MainViewModel, events: AsyncThrowingStream<RealtimeSignal, any Error>,
    clock: ManualClock = ManualClock(), unread: Int = 0
  ) -> HomeViewModel {
    let unreadCount = UnreadCounter(unread)
    let likedYou = LikesViewModel(
      actions: .init(
        viewPage: { _ in
          LikesPageView(
            page: LikesPage(number: 1, batchSize: 10, items: [], nextCursor: nil, source: .server),
            unblurSecondsLeft: nil, unread: unread)
        }, likeBack: { _ in throw LikesError.idTooShort("x") }, skip: { ($0, nil) }))
    let center = NotificationCenterViewModel(
      likedYou: likedYou,
      mutuals: MutualsViewModel(
        actions: .init(load: {
          LikesPage(number: 1, batchSize: 1, items: [], nextCursor: nil, source: .server)
        })),
      watch: LikesWatchViewModel(
        actions: .init(
          events: { events }, isBlurred: { true },
          newLikeArrived: { _, _ in (unreadCount.raise(), nil) })),
      banners: BannerQueue(clock: clock))
    return HomeViewModel(session: .alice, center: center, unread: unread, responder: main)
  }
}

extension Result {
  fileprivate var isFailure: Bool {
    if case .failure = self { return true }
    return false
  }
}

/// The kept unread badge, raised by each new like.
private final class UnreadCounter: Sendable {
  private let value: Mutex<Int>
  init(_ start: Int) { value = Mutex(start) }
  func raise() -> Int {
    value.withLock {
      $0 += 1; return $0
    }
  }
}
