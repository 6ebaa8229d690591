import Domain
import Foundation
import Testing

/// The behaviours every `LikesCache` must have, run against each implementation.
/// `makeCache(account)` gives the cache of that account; caches of one run share storage.
struct LikesCacheSpecs {
  let makeCache: @Sendable (String) -> any LikesCache

  func readsNothing_whenEmpty() async throws {
    let sut = makeCache("alice")
    #expect(try await sut.page(1, batchSize: 10) == nil)
    #expect(try await sut.mutuals() == nil)
  }

  func readsAPageBack_withOrderCursorAndTime() async throws {
    let sut = makeCache("alice")
    let page = Self.page(["c", "a", "b"], next: 3)
    try await sut.store(page, number: 2, batchSize: 3)
    #expect(try await sut.page(2, batchSize: 3) == page)
    #expect(try await sut.page(1, batchSize: 3) == nil)
    #expect(try await sut.page(2, batchSize: 10) == nil, "page 2 of 3 is not page 2 of 10")
  }

  func storingAPageAgain_replacesIt() async throws {
    let sut = makeCache("alice")
    try await sut.store(Self.page(["a", "b"], next: 2), number: 1, batchSize: 2)
    try await sut.store(Self.page(["c"], next: nil), number: 1, batchSize: 2)
    #expect(try await sut.page(1, batchSize: 2) == Self.page(["c"], next: nil))
  }

  func findsWhoWasShown_byIDPrefix() async throws {
    let sut = makeCache("alice")
    try await sut.rememberShown(Self.page(["abc12345-1", "abc12345-2", "def"], next: nil).users)
    try await sut.rememberShown(Self.page(["abc12345-1"], next: nil).users)
    #expect(
      Set(try await sut.shownLikes(withIDPrefix: "abc12345").map(\.id)) == [
        "abc12345-1", "abc12345-2",
      ])
    #expect(try await sut.shownLikes(withIDPrefix: "abc12345-2").map(\.id) == ["abc12345-2"])
    #expect(try await sut.shownLikes(withIDPrefix: "zzz").isEmpty)
  }

  func whoWasShown_outlivesPagesOutOfDate_untilDeleteAll() async throws {
    let sut = makeCache("alice")
    let page = Self.page(["abc12345-1"], next: nil)
    try await sut.store(page, number: 1, batchSize: 10)
    try await sut.rememberShown(page.users)
    try await sut.markPagesOutOfDate()
    #expect(try await sut.shownLikes(withIDPrefix: "abc").map(\.id) == ["abc12345-1"])
    try await sut.deleteAll()
    #expect(try await sut.shownLikes(withIDPrefix: "abc").isEmpty)
  }

  func markingOutOfDate_keepsEveryLikesPageMarkedSo_untilStoredAgain_andLeavesMutuals()
    async throws
  {
    let sut = makeCache("alice")
    try await sut.store(Self.page(["a"], next: 2), number: 1, batchSize: 1)
    try await sut.store(Self.page(["b"], next: nil), number: 2, batchSize: 1)
    try await sut.storeMutuals(Self.page(["m"], next: nil))
    try await sut.markPagesOutOfDate()
    #expect(try await sut.page(1, batchSize: 1) == Self.page(["a"], next: 2, outOfDate: true))
    #expect(try await sut.page(2, batchSize: 1) == Self.page(["b"], next: nil, outOfDate: true))
    #expect(try await sut.mutuals() == Self.page(["m"], next: nil))
    try await sut.store(Self.page(["c"], next: 2), number: 1, batchSize: 1)
    #expect(try await sut.page(1, batchSize: 1) == Self.page(["c"], next: 2), "fetched again")
  }

  func accountsNeverSeeEachOther_andDeleteAllIsPerAccount() async throws {
    let alice = makeCache("alice")
    let bob = makeCache("bob")
    try await alice.store(Self.page(["a"], next: nil), number: 1, batchSize: 10)
    try await bob.store(Self.page(["b"], next: nil), number: 1, batchSize: 10)
    try await bob.rememberShown(Self.page(["b"], next: nil).users)
    #expect(try await alice.page(1, batchSize: 10)?.users.map(\.id) == ["a"])
    #expect(try await alice.shownLikes(withIDPrefix: "b").isEmpty)
    try await alice.deleteAll()
    #expect(try await alice.page(1, batchSize: 10) == nil)
    #expect(try await bob.page(1, batchSize: 10)?.users.map(\.id) == ["b"])
  }

  static func page(_ ids: [String], next: Int?, outOfDate: Bool = false) -> CachedLikesPage {
    CachedLikesPage(
      users: ids.map {
        LikedUser(id: $0, userName: "name of \($0)", avatarURL: $0 == "a" ? nil : "https://x/\($0)")
      },
      nextCursor: next, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000),
      isOutOfDate: outOfDate)
  }
}
