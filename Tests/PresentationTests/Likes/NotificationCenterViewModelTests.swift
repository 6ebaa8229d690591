import Domain
import Presentation
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct NotificationCenterViewModelTests {
  @Test func matchesFromTheWatchAndFromLikingBack_shareOneBannerQueue() async throws {
    let clock = ManualClock()
    let (stream, continuation) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let sut = makeSUT(clock: clock, events: stream)
    var updates: [LikesWatchViewModel.Update] = []
    sut.onWatchUpdate = { updates.append($0) }
    let watching = Task { await sut.watch.run() }

    continuation.yield(
      .event(.mutualMatch(LikedUser(id: "1", userName: "Ana", avatarURL: nil)), seq: 1))
    try await waitUntil("the watch shows an update") { !updates.isEmpty }
    await sut.likedYou.likeBack("22222222")

    #expect(sut.banners.current == "It's a match with Ana!")
    #expect(sut.banners.waiting == ["It's a match with Bo! They are in your mutuals now."])
    clock.advance(by: .seconds(10))
    // The banner's timer wakes on its own task: wait for the change it makes.
    try await waitUntil("Bo's banner follows Ana's") {
      sut.banners.current == "It's a match with Bo! They are in your mutuals now."
    }
    #expect(
      updates == [.match("It's a match with Ana!", id: "1")], "the view still gets every update")

    continuation.finish()
    await watching.value
  }

  @Test func aMatchMadeByLikingBackHere_isAnnouncedOnce_thoughTheServerTellsOfItToo()
    async throws
  {
    let (stream, continuation) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let sut = makeSUT(clock: ManualClock(), events: stream)
    var updates: [LikesWatchViewModel.Update] = []
    sut.onWatchUpdate = { updates.append($0) }
    let watching = Task { await sut.watch.run() }

    await sut.likedYou.likeBack("22222222")
    let bo = LikedUser(id: "22222222-b", userName: "Bo", avatarURL: nil)
    continuation.yield(.event(.mutualMatch(bo), seq: 8))
    continuation.yield(
      .event(.likedYouInserted(LikedUser(id: "n", userName: "N", avatarURL: nil)), seq: 9))
    try await waitUntil("the like after the match") { updates.count == 1 }

    #expect(sut.banners.current == "It's a match with Bo! They are in your mutuals now.")
    #expect(sut.banners.waiting.isEmpty, "one announcement per match")
    #expect(updates.allSatisfy { if case .match = $0 { false } else { true } }, "\(updates)")
    continuation.finish()
    await watching.value
  }

  @Test func mutualsLoad_readOnly() async {
    let sut = makeSUT(clock: ManualClock(), events: AsyncThrowingStream { $0.finish() })

    await sut.mutuals.load()

    guard case .loaded(let page) = sut.mutuals.state else {
      Issue.record("expected mutuals, got \(sut.mutuals.state)")
      return
    }
    #expect(page.items.map(\.isReadOnly) == [true])
  }

  private func makeSUT(
    clock: ManualClock, events: AsyncThrowingStream<RealtimeSignal, any Error>
  )
    -> NotificationCenterViewModel
  {
    let bo = LikedUser(id: "22222222-b", userName: "Bo", avatarURL: nil)
    let likedYou = LikesViewModel(
      actions: .init(
        viewPage: { _ in
          LikesPageView(
            page: LikesPage(number: 1, batchSize: 10, items: [], nextCursor: nil, source: .server),
            unblurSecondsLeft: nil, unread: 0)
        }, likeBack: { _ in (true, .mutual(bo)) }, skip: { ($0, nil) }))
    let mutuals = MutualsViewModel(
      actions: .init(load: {
        LikesPage(number: 1, batchSize: 1, items: [.mutual(bo)], nextCursor: nil, source: .server)
      }))
    let watch = LikesWatchViewModel(
      actions: .init(
        events: { events }, isBlurred: { true }, newLikeArrived: { _, _ in (1, nil) }))
    return NotificationCenterViewModel(
      likedYou: likedYou, mutuals: mutuals, watch: watch, banners: BannerQueue(clock: clock))
  }
}
