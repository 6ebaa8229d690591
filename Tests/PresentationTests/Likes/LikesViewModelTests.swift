import Domain
import Foundation
import Presentation
import Synchronization
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct LikesViewModelTests {
  @Test func load_showsThePage_andTheCountdown() async {
    let sut = makeSUT()
    await sut.load(page: 1, batchSize: 10, refresh: false)
    #expect(sut.state.page?.items.map(\.id) == ["aaaaaaaa-1", "bbbbbbbb-2", "cccccccc-3"])
    #expect(sut.state.unblurSecondsLeft == 42)
    #expect(!sut.state.isLoading)
  }

  /// Clearing it when the first page is seen is `ViewLikesPageUseCase`'s (LikesUseCasesTests).
  @Test func load_showsTheUnreadBadge_asThePageViewSaysItStood() async {
    let sut = makeSUT(unread: 3)
    await sut.load(page: 1, batchSize: 10, refresh: false)
    #expect(sut.state.unread == 3)
  }

  @Test func skip_removesTheCardAtOnce_beforeTheServerAnswers() async throws {
    let gate = AsyncStream<Void>.makeStream()
    let sut = makeSUT(skip: { id in
      for await _ in gate.stream {}
      return ("bbbbbbbb-2", nil)
    })
    await sut.load(page: 1, batchSize: 10, refresh: false)
    var pages: [[String]] = []
    sut.onStateChange = { pages.append($0.page?.items.map(\.id) ?? []) }

    let skipping = Task { await sut.skip("bbbbbbbb") }
    try await waitUntil("the optimistic page is shown") { !pages.isEmpty }
    #expect(pages.first == ["aaaaaaaa-1", "cccccccc-3"], "the card left before the answer")
    gate.continuation.finish()
    await skipping.value

    #expect(sut.state.notice == "Skipped bbbbbbbb.")
    #expect(sut.state.page?.items.map(\.id) == ["aaaaaaaa-1", "cccccccc-3"])
  }

  @Test func aRefusedLike_putsTheCardBackWhereItWas_andSaysWhy() async {
    let sut = makeSUT(likeBack: { _ in
      throw RemoteAPIError.server(status: 503, code: nil, description: nil)
    })
    await sut.load(page: 1, batchSize: 10, refresh: false)

    await sut.likeBack("bbbbbbbb")

    #expect(sut.state.page?.items.map(\.id) == ["aaaaaaaa-1", "bbbbbbbb-2", "cccccccc-3"])
    #expect(
      sut.state.error
        == UserFacingError(RemoteAPIError.server(status: 503, code: nil, description: nil)))
    #expect(sut.state.notice == "The card is back in the list.")
  }

  @Test func aMutualMatch_raisesABanner() async {
    let sut = makeSUT(likeBack: { id in
      (true, .mutual(LikedUser(id: id, userName: "Zoë", avatarURL: nil)))
    })

    await sut.likeBack("aaaaaaaa-1")

    #expect(sut.state.banner == "It's a match with Zoë! They are in your mutuals now.")
    #expect(sut.state.error == nil)
  }

  @Test func aFailedLoad_isAnError_notAnEmptyPage() async {
    let sut = makeSUT(loadPage: { _ in throw RemoteAPIError.unreachable(reason: "down") })
    await sut.load(page: 2, batchSize: 10, refresh: false)
    #expect(sut.state.page == nil)
    #expect(sut.state.error?.code == "server_unreachable")
  }

  private func makeSUT(
    unread: Int = 0,
    loadPage: (@Sendable (LikesPageRequest) async throws -> LikesPage)? = nil,
    likeBack: @escaping @Sendable (String) async throws -> (mutualMatch: Bool, item: LikeItem) = {
      _ in
      throw CancellationError()
    },
    skip: @escaping @Sendable (String) async throws -> (id: String, item: LikeItem?) = {
      ($0, nil)
    }
  ) -> LikesViewModel {
    let items = ["aaaaaaaa-1", "bbbbbbbb-2", "cccccccc-3"].map {
      LikeItem.likedYou(LikedUser(id: $0, userName: "user", avatarURL: nil), isBlurred: true)
    }
    let page = LikesPage(number: 1, batchSize: 10, items: items, nextCursor: nil, source: .server)
    return LikesViewModel(
      actions: .init(
        viewPage: { request in
          LikesPageView(
            page: try await loadPage?(request) ?? page, unblurSecondsLeft: 42, unread: unread)
        }, likeBack: likeBack, skip: skip))
  }
}

/// The kept unread badge, shared with a view model's actions.
final class Badge: Sendable {
  private let stored: Mutex<Int>
  init(_ value: Int) { stored = Mutex(value) }
  var value: Int {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }
}
