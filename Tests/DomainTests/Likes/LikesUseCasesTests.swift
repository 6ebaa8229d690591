import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct LikesUseCasesTests {
  // MARK: - Pages: cache first, then network

  @Test func load_asksTheNetwork_whenTheCacheHasNoPage_andKeepsWhatItGot() async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    remote.pages.withLock { $0[1] = (users(["a", "b"]), 2) }

    let page = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 2, refresh: false)

    #expect(page.items.map(\.id) == ["a", "b"])
    #expect(page.nextCursor == 2)
    #expect(page.source == .server)
    #expect(try await cache.page(1, batchSize: 2)?.users.map(\.id) == ["a", "b"])
    #expect(remote.calls.all == ["page 1 of 2"])
  }

  /// Page 1 showed a, b, c; then a like arrived (n), which the server puts first. Page 2
  /// asked for as it was would start with c again: moved by one, it goes on from d.
  @Test func aListThatMovedOn_pagesOnWithoutRepeatingOrSkippingAnybody() async throws {
    let (sut, remote, _, _, _) = makeSUT()
    remote.pages.withLock {
      $0[1] = (users(["n", "a", "b"]), 2)
      $0[2] = (users(["c", "d", "e"]), 3)
      $0[3] = (users(["f", "g"]), nil)
    }
    let load = LoadLikesPageUseCase(sut)

    let page2 = try await load.execute(LikesPageRequest(page: 2, batchSize: 3, shift: 1))
    let page3 = try await load.execute(LikesPageRequest(page: 3, batchSize: 3, shift: 1))

    #expect(page2.items.map(\.id) == ["d", "e", "f"])
    #expect(page2.number == 2 && page2.nextCursor == 3)
    #expect(page3.items.map(\.id) == ["g"])
    #expect(page3.nextCursor == nil)
  }

  /// Page 1 showed a, b, c and b was skipped: the server's page 2 now starts at e, and
  /// moved back by one, page 2 starts at d, the next person never shown.
  @Test func aListThatLostSomebody_pagesOnFromTheNextOneNotShown() async throws {
    let (sut, remote, _, _, _) = makeSUT()
    remote.pages.withLock {
      $0[1] = (users(["a", "c", "d"]), 2)
      $0[2] = (users(["e", "f"]), nil)
    }

    let page2 = try await LoadLikesPageUseCase(sut).execute(
      LikesPageRequest(page: 2, batchSize: 3, shift: -1))

    #expect(page2.items.map(\.id) == ["d", "e", "f"])
    #expect(page2.nextCursor == nil)
  }

  @Test func load_servesTheCachedPage_withoutTheNetwork() async throws {
    let (sut, remote, cache, _, now) = makeSUT()
    let fetchedAt = now.date.addingTimeInterval(-300)
    try await cache.store(
      CachedLikesPage(users: users(["a"]), nextCursor: nil, fetchedAt: fetchedAt), number: 1,
      batchSize: 10)

    let page = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: false)

    #expect(page.source == .cache(fetchedAt: fetchedAt, offline: false))
    #expect(remote.calls.all.isEmpty)
  }

  @Test func refresh_asksTheNetwork_evenAfterTheLastPage() async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    try await cache.store(
      CachedLikesPage(users: users(["old"]), nextCursor: nil, fetchedAt: .distantPast), number: 5,
      batchSize: 10)
    remote.pages.withLock { $0[5] = (users(["new"]), 6) }

    let page = try await LoadLikesPageUseCase(sut).execute(page: 5, batchSize: 10, refresh: true)

    #expect(page.items.map(\.id) == ["new"])
    #expect(page.nextCursor == 6, "a refresh of the last page finds what came after it")
    #expect(remote.calls.all == ["page 5 of 10"])
  }

  @Test func load_fallsBackToTheCache_offline_whenTheServerIsUnreachable() async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    try await cache.store(
      CachedLikesPage(users: users(["a"]), nextCursor: nil, fetchedAt: .distantPast), number: 1,
      batchSize: 10)
    remote.failure.withLock { $0 = .unreachable(reason: "down") }

    let page = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: true)

    #expect(page.source == .cache(fetchedAt: .distantPast, offline: true))
  }

  @Test func load_failsClearly_offline_whenThePageWasNeverCached() async {
    let (sut, remote, _, _, _) = makeSUT()
    remote.failure.withLock { $0 = .timedOut(seconds: 15) }
    await #expect(throws: RemoteAPIError.timedOut(seconds: 15)) {
      try await LoadLikesPageUseCase(sut).execute(page: 3, batchSize: 10, refresh: false)
    }
  }

  @Test func load_doesNotHideServerErrorsBehindTheCache() async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    try await cache.store(
      CachedLikesPage(users: users(["a"]), nextCursor: nil, fetchedAt: .distantPast), number: 1,
      batchSize: 10)
    remote.failure.withLock { $0 = .server(status: 500, code: nil, description: nil) }
    await #expect(throws: RemoteAPIError.server(status: 500, code: nil, description: nil)) {
      try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: true)
    }
  }

  // MARK: - Blur and the unblur window

  @Test func everythingIsBlurred_untilAWindowOpens_andForItsLengthOnly() async throws {
    let (sut, remote, _, _, now) = makeSUT()
    remote.pages.withLock { $0[1] = (users(["a"]), nil) }
    let load = {
      try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: false)
    }

    #expect(try await load().items.map(\.isBlurred) == [true])
    let end = try await UnblurUseCase(sut).execute()
    #expect(end == now.date.addingTimeInterval(120))
    #expect(try await load().items.map(\.isBlurred) == [false])
    now.advance(by: 119)
    #expect(try await UnblurUseCase(sut).secondsLeft() == 1)
    #expect(try await load().items.map(\.isBlurred) == [false])
    now.advance(by: 1)
    #expect(try await UnblurUseCase(sut).secondsLeft() == nil)
    #expect(try await load().items.map(\.isBlurred) == [true], "the window ends on time")
  }

  @Test func aWindowThatEndedWhileTheAppWasClosed_isBlurredAtTheNextRun() async throws {
    let now = TestNow()
    let state = InMemoryNotificationCenterStateStore(now.date.addingTimeInterval(-1))
    let (sut, remote, _, _, _) = makeSUT(now: now, state: state)
    remote.pages.withLock { $0[1] = (users(["a"]), nil) }

    let page = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: false)

    #expect(page.items.map(\.isBlurred) == [true])
  }

  @Test(arguments: [
    (nil as TimeInterval?, 0.0, false, nil as Int?),
    (120, 0, true, 120),
    (120, 119.5, true, 1),
    (120, 120, false, nil),
    (120, 500, false, nil),
  ])
  func unblurWindowRules(
    endAfter: TimeInterval?, elapsed: TimeInterval, open: Bool, secondsLeft: Int?
  ) {
    let start = Date(timeIntervalSince1970: 0)
    let end = endAfter.map { start.addingTimeInterval($0) }
    let now = start.addingTimeInterval(elapsed)
    #expect(UnblurWindow.isOpen(endDate: end, now: now) == open)
    #expect(UnblurWindow.secondsLeft(endDate: end, now: now) == secondsLeft)
  }

  // MARK: - Liking back and skipping

  @Test func likeBack_byAUniquePrefix_isAMutualMatch_thatMovesToMutuals() async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    try await cache.store(
      CachedLikesPage(
        users: users(["abcdef12-x", "ffff0000-y"]), nextCursor: nil, fetchedAt: .distantPast),
      number: 1, batchSize: 10)
    try await cache.rememberShown(users(["abcdef12-x", "ffff0000-y"]))

    let outcome = try await RespondToLikeUseCase(sut).likeBack("ABCDEF12")

    #expect(outcome.mutualMatch)
    #expect(
      outcome.item
        == .mutual(LikedUser(id: "abcdef12-x", userName: "user abcdef12-x", avatarURL: nil)))
    #expect(remote.calls.all == ["like abcdef12-x"])
    #expect(
      try await cache.page(1, batchSize: 10)?.isOutOfDate == true,
      "a removal marks the pages out of date")
    #expect(try await cache.mutuals()?.users.map(\.id) == ["abcdef12-x"])
  }

  @Test(arguments: [
    ("abc", LikesError.idTooShort("abc")),
    ("12345678", .unknownPerson(id: "12345678")),
    ("abcdef12", .ambiguousID(prefix: "abcdef12", matches: ["abcdef12-x", "abcdef12-y"])),
  ])
  func aPrefixMustNameExactlyOneShownLike(prefix: String, error: LikesError) async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    try await cache.rememberShown(users(["abcdef12-x", "abcdef12-y"]))

    await #expect(throws: error) { try await RespondToLikeUseCase(sut).skip(prefix) }
    #expect(remote.calls.all.isEmpty)
  }

  @Test func aFullID_needsNoCache() async throws {
    let (sut, remote, _, _, _) = makeSUT()
    let id = "0a1b2c3d-0000-4000-8000-000000000000"
    let skipped = try await RespondToLikeUseCase(sut).skip(id.uppercased())
    #expect(skipped.id == id)
    #expect(skipped.item == nil, "never shown here: no card to name")
    #expect(remote.calls.all == ["skip \(id)"])
  }

  @Test func aRefusedSkip_leavesTheCacheAsItWas() async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    let cached = CachedLikesPage(
      users: users(["abcdef12-x"]), nextCursor: nil, fetchedAt: .distantPast)
    try await cache.store(cached, number: 1, batchSize: 10)
    try await cache.rememberShown(cached.users)
    remote.failure.withLock { $0 = .server(status: 503, code: nil, description: nil) }

    await #expect(throws: RemoteAPIError.server(status: 503, code: nil, description: nil)) {
      try await RespondToLikeUseCase(sut).skip("abcdef12")
    }
    #expect(try await cache.page(1, batchSize: 10) == cached)
  }

  /// A like back invalidates the cached pages; the ids the person saw must still work.
  @Test func anIDFromAPageShownBeforeALikeBack_stillResolves() async throws {
    let (sut, remote, _, _, _) = makeSUT()
    remote.pages.withLock { $0[1] = (users(["aaaaaaaa-1", "bbbbbbbb-2"]), nil) }
    _ = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: false)

    _ = try await RespondToLikeUseCase(sut).likeBack("aaaaaaaa")
    let skipped = try await RespondToLikeUseCase(sut).skip("bbbbbbbb")

    #expect(skipped.id == "bbbbbbbb-2")
    #expect(skipped.item?.userName == "user bbbbbbbb-2", "the card as it was shown")
    #expect(remote.calls.all == ["page 1 of 10", "like aaaaaaaa-1", "skip bbbbbbbb-2"])
  }

  @Test func anIDShownByTheWatch_orInTheMutuals_resolves() async throws {
    let (sut, remote, _, _, _) = makeSUT()
    _ = try await UnreadBadgeUseCase(sut).newLikeArrived(
      LikedUser(id: "cccccccc-3", userName: "New", avatarURL: nil), seq: 3)

    _ = try await RespondToLikeUseCase(sut).likeBack("cccccccc")

    #expect(remote.calls.all == ["like cccccccc-3"])
  }

  @Test func aServerErrorForAShownID_isTheServersError() async throws {
    let (sut, remote, _, _, _) = makeSUT()
    remote.pages.withLock { $0[1] = (users(["dddddddd-4"]), nil) }
    _ = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: false)
    remote.failure.withLock { $0 = .server(status: 502, code: nil, description: nil) }

    await #expect(throws: RemoteAPIError.server(status: 502, code: nil, description: nil)) {
      try await RespondToLikeUseCase(sut).skip("dddddddd")
    }
  }

  @Test func signedOut_isNotSignedIn_andAsksNothing() async {
    let (sut, remote, _, _, _) = makeSUT(signedIn: false)
    await #expect(throws: SessionError.notSignedIn) {
      try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: false)
    }
    await #expect(throws: SessionError.notSignedIn) { try await UnblurUseCase(sut).execute() }
    #expect(remote.calls.all.isEmpty)
  }

  // MARK: - A page view: the page, the unblur seconds and the badge in one read

  @Test func aPageView_showsTheBadgeAsItStood_andTheFirstPageClearsIt() async throws {
    let state = InMemoryNotificationCenterStateStore(unread: 3)
    let (sut, remote, _, _, _) = makeSUT(state: state)
    remote.pages.withLock {
      $0[1] = (users(["a"]), 2)
      $0[2] = (users(["b"]), nil)
    }
    let view = ViewLikesPageUseCase(sut)

    let second = try await view.execute(LikesPageRequest(page: 2, batchSize: 1))
    #expect(second.unread == 3)
    #expect(second.badge == 3)
    #expect(try await state.unreadCount() == 3, "page 2 is not where new likes land")
    let first = try await view.execute(LikesPageRequest(page: 1, batchSize: 1))
    #expect(first.unread == 3, "shown once, as it stood")
    #expect(first.badge == 0, "the prompt's badge agrees with the page at once")
    #expect(try await state.unreadCount() == 0)
  }

  @Test func aPageFromTheServer_showsWhenTheCacheCannotKeepIt_sayingWhy() async throws {
    let state = InMemoryNotificationCenterStateStore(unread: 2)
    let (sut, remote, cache, _, _) = makeSUT(state: state)
    remote.pages.withLock { $0[1] = (users(["a", "b"]), nil) }
    let full = LocalStorageError(file: "/data/app.sqlite", problem: .diskFull)
    cache.failWrites(with: full)
    state.writeFailure.withLock { $0 = full }

    let view = try await ViewLikesPageUseCase(sut).execute(
      LikesPageRequest(page: 1, batchSize: 10))

    #expect(view.page.items.map(\.id) == ["a", "b"])
    #expect(view.page.source == .server)
    #expect(view.storageTrouble == full)
    #expect(view.badge == 2, "not cleared, since the clear could not be written")
    #expect(try await state.unreadCount() == 2)
  }

  @Test func aLikeOnAFullDisk_countsInMemory_andThePagesComeFromTheServer_untilItIsKept()
    async throws
  {
    let state = InMemoryNotificationCenterStateStore(unread: 2)
    let (sut, remote, cache, _, _) = makeSUT(state: state)
    remote.pages.withLock { $0[1] = (users(["a"]), nil) }
    let view = ViewLikesPageUseCase(sut)
    _ = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: false)
    let full = LocalStorageError(file: "/data/app.sqlite", problem: .diskFull)
    cache.failWrites(with: full)
    state.writeFailure.withLock { $0 = full }

    let arrival = try await UnreadBadgeUseCase(sut).newLikeArrived(
      LikedUser(id: "cccccccc-3", userName: "New", avatarURL: nil), seq: 3)
    remote.pages.withLock { $0[1] = (users(["cccccccc-3", "a"]), nil) }
    let stale = try await view.execute(LikesPageRequest(page: 1, batchSize: 10))

    #expect(arrival.unread == 3, "the kept two and the one the disk could not keep")
    #expect(arrival.storageTrouble == full)
    #expect(try await UnreadBadgeUseCase(sut).count() == 3)
    #expect(stale.page.items.map(\.id) == ["cccccccc-3", "a"], "the server's, not the cache's")
    #expect(stale.page.source == .server)
    #expect(stale.storageTrouble == full)
    #expect(stale.badge == 3, "not cleared, since the clear could not be written")
    _ = try await RespondToLikeUseCase(sut).likeBack("cccccccc")
    #expect(remote.calls.all.last == "like cccccccc-3", "the id shown can be typed back")

    cache.failWrites(with: nil)
    state.writeFailure.withLock { $0 = nil }
    let kept = try await UnreadBadgeUseCase(sut).newLikeArrived(
      LikedUser(id: "dddddddd-4", userName: "Next", avatarURL: nil), seq: 4)
    #expect(kept.unread == 4)
    #expect(kept.storageTrouble == nil)
    #expect(try await state.unreadCount() == 4, "written down with the next like kept")
    #expect(try await cache.shownLikes(withIDPrefix: "cccccccc").map(\.id) == ["cccccccc-3"])
    #expect(
      try await cache.page(1, batchSize: 10)?.isOutOfDate == true,
      "the cached pages are marked out of date once the files take it")
  }

  @Test func anotherFailure_stillFailsThePage() async throws {
    let (sut, remote, cache, _, _) = makeSUT()
    remote.failure.withLock { $0 = .server(status: 500, code: nil, description: nil) }
    cache.failWrites(with: LocalStorageError(file: "/data/app.sqlite", problem: .ioFailure))

    await #expect(throws: RemoteAPIError.server(status: 500, code: nil, description: nil)) {
      try await ViewLikesPageUseCase(sut).execute(LikesPageRequest(page: 1, batchSize: 10))
    }
  }

  @Test func aPageView_blursAndCountsDownByTheWindowItRead() async throws {
    let now = TestNow()
    let state = InMemoryNotificationCenterStateStore(now.date.addingTimeInterval(30))
    let (sut, remote, _, _, _) = makeSUT(now: now, state: state)
    remote.pages.withLock { $0[1] = (users(["a"]), nil) }
    let view = ViewLikesPageUseCase(sut)

    let open = try await view.execute(LikesPageRequest(page: 1, batchSize: 10))
    #expect(open.unblurSecondsLeft == 30)
    #expect(open.page.items.map(\.isBlurred) == [false])
    now.advance(by: 30)
    let closed = try await view.execute(LikesPageRequest(page: 1, batchSize: 10))
    #expect(closed.unblurSecondsLeft == nil)
    #expect(closed.page.items.map(\.isBlurred) == [true])
  }

  @Test func aPageThatCannotBeShown_clearsNothing() async throws {
    let state = InMemoryNotificationCenterStateStore(unread: 2)
    let (sut, remote, _, _, _) = makeSUT(state: state)
    remote.failure.withLock { $0 = .unreachable(reason: "down") }

    await #expect(throws: RemoteAPIError.self) {
      try await ViewLikesPageUseCase(sut).execute(LikesPageRequest(page: 1, batchSize: 10))
    }
    #expect(try await state.unreadCount() == 2)
  }

  // MARK: - Helpers

  private func users(_ ids: [String]) -> [LikedUser] {
    ids.map { LikedUser(id: $0, userName: "user \($0)", avatarURL: nil) }
  }

  private func makeSUT(
    now: TestNow = TestNow(),
    state: InMemoryNotificationCenterStateStore = InMemoryNotificationCenterStateStore(),
    signedIn: Bool = true
  )
    -> (
      LikesEnvironment, LikesRemoteAPIStub, InMemoryLikesCache,
      InMemoryNotificationCenterStateStore, TestNow
    )
  {
    let remote = LikesRemoteAPIStub()
    let cache = InMemoryLikesCache()
    let session = signedIn ? RemoteUserSession(username: "me", accessToken: AccessToken("t")) : nil
    let environment = LikesEnvironment(
      remote: remote, cache: cache, state: state,
      access: SignedInAccess(dataStore: InMemoryUserSessionDataStore(session)), now: { now.date })
    return (environment, remote, cache, state, now)
  }
}

final class LikesRemoteAPIStub: LikesRemoteAPI {
  let pages = Mutex<[Int: ([LikedUser], Int?)]>([:])
  let failure = Mutex<RemoteAPIError?>(nil)
  let calls = CallLog<String>()

  func fetchData(page: Int, batchSize: Int, token: AccessToken) async throws -> (
    data: [LikedUser], nextCursor: Int?
  ) {
    calls.append("page \(page) of \(batchSize)")
    if let failure = failure.withLock({ $0 }) { throw failure }
    guard let answer = pages.withLock({ $0[page] }) else { throw UnexpectedCall() }
    return (answer.0, answer.1)
  }

  func like(id: String, token: AccessToken) async throws -> (mutualMatch: Bool, item: LikedUser) {
    calls.append("like \(id)")
    if let failure = failure.withLock({ $0 }) { throw failure }
    return (true, LikedUser(id: id, userName: "user \(id)", avatarURL: nil))
  }

  func skip(id: String, token: AccessToken) async throws {
    calls.append("skip \(id)")
    if let failure = failure.withLock({ $0 }) { throw failure }
  }

  func fetchMutuals(token: AccessToken) async throws -> [LikedUser] {
    calls.append("mutuals")
    if let failure = failure.withLock({ $0 }) { throw failure }
    return []
  }
}
