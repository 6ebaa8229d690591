import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Domain

/// A page at the edges of what is known: past the end of the list, and offline with a
/// cached copy that the list has moved past.
@Suite(.timeLimit(.minutes(1))) struct LikesPageEdgesTests {
  @Test func aPagePastTheEnd_saysWhichIsTheLast_askingTheServerInHalves() async throws {
    let (sut, remote, _) = makeSUT(likes: 48)

    let page = try await LoadLikesPageUseCase(sut).execute(
      page: 999, batchSize: 10, refresh: false)

    #expect(page.items.isEmpty)
    #expect(page.lastPage == 5)
    let asked = remote.calls.all.count - 1
    #expect(asked <= 10, "a search in halves, not a page at a time: \(remote.calls.all)")
  }

  @Test func aPagePastTheEnd_ofNobody_saysSo_andPageOneNeedsNoSearch() async throws {
    let (sut, remote, _) = makeSUT(likes: 0)

    let past = try await LoadLikesPageUseCase(sut).execute(page: 7, batchSize: 10, refresh: false)
    remote.calls.clear()
    let first = try await LoadLikesPageUseCase(sut).execute(page: 1, batchSize: 10, refresh: true)

    #expect(past.lastPage == 0)
    #expect(first.lastPage == nil, "an empty first page is the whole list")
    #expect(remote.calls.all == ["page 1 of 10"])
  }

  @Test func offline_aCachedPageTheListMovedPast_showsSaidOutOfDate() async throws {
    let (sut, remote, cache) = makeSUT(likes: 30)
    _ = try await LoadLikesPageUseCase(sut).execute(page: 2, batchSize: 10, refresh: false)
    try await cache.markPagesOutOfDate()
    remote.failure.withLock { $0 = .timedOut(seconds: 15) }

    let page = try await LoadLikesPageUseCase(sut).execute(
      page: 2, batchSize: 10, refresh: false)

    #expect(page.items.count == 10)
    #expect(
      page.source
        == .cache(fetchedAt: Date(timeIntervalSince1970: 0), offline: true, outOfDate: true))
  }

  @Test func offline_aMovedListsPage_asksTheServerOnce_andShowsTheCachedOne() async throws {
    let (sut, remote, _) = makeSUT(likes: 30)
    _ = try await LoadLikesPageUseCase(sut).execute(page: 2, batchSize: 10, refresh: false)
    remote.failure.withLock { $0 = .timedOut(seconds: 15) }
    remote.calls.clear()

    // Two likes arrived since: page 2 now spans the server's pages 2 and 3.
    let page = try await LoadLikesPageUseCase(sut).execute(
      LikesPageRequest(page: 2, batchSize: 10, shift: 2))

    #expect(remote.calls.all.count == 1, "one time limit waited out, not two: \(remote.calls.all)")
    #expect(page.items.count == 10)
    #expect(
      page.source
        == .cache(fetchedAt: Date(timeIntervalSince1970: 0), offline: true, outOfDate: true))
  }

  private func makeSUT(likes total: Int) -> (
    LikesEnvironment, LikesRemoteAPIStub, InMemoryLikesCache
  ) {
    let remote = LikesRemoteAPIStub()
    let batch = 10
    remote.pages.withLock { pages in
      for number in 1...1_000 {
        let first = (number - 1) * batch
        let ids = first < total ? Array(first..<min(total, first + batch)) : []
        pages[number] = (
          ids.map { LikedUser(id: "id-\($0)", userName: "n\($0)", avatarURL: nil) },
          first + batch < total ? number + 1 : nil
        )
      }
    }
    let cache = InMemoryLikesCache()
    let environment = LikesEnvironment(
      remote: remote, cache: cache, state: InMemoryNotificationCenterStateStore(),
      access: SignedInAccess(
        dataStore: InMemoryUserSessionDataStore(
          RemoteUserSession(username: "me", accessToken: AccessToken("t")))),
      now: { Date(timeIntervalSince1970: 0) })
    return (environment, remote, cache)
  }
}
