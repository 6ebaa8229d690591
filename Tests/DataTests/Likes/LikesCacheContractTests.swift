import Data
import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct InMemoryLikesCacheTests {
  private var specs: LikesCacheSpecs {
    let caches = Mutex<[String: InMemoryLikesCache]>([:])
    return LikesCacheSpecs { account in
      caches.withLock { caches in
        if let cache = caches[account] { return cache }
        let cache = InMemoryLikesCache()
        caches[account] = cache
        return cache
      }
    }
  }

  @Test func readsNothing_whenEmpty() async throws { try await specs.readsNothing_whenEmpty() }
  @Test func readsAPageBack() async throws {
    try await specs.readsAPageBack_withOrderCursorAndTime()
  }
  @Test func storingAgainReplaces() async throws { try await specs.storingAPageAgain_replacesIt() }
  @Test func findsByPrefix() async throws { try await specs.findsWhoWasShown_byIDPrefix() }
  @Test func shownOutlivesPages() async throws {
    try await specs.whoWasShown_outlivesPagesOutOfDate_untilDeleteAll()
  }
  @Test func markingOutOfDate() async throws {
    try await specs.markingOutOfDate_keepsEveryLikesPageMarkedSo_untilStoredAgain_andLeavesMutuals()
  }
  @Test func accountsApart() async throws {
    try await specs.accountsNeverSeeEachOther_andDeleteAllIsPerAccount()
  }
}

@Suite(.timeLimit(.minutes(1))) struct GRDBLikesCacheTests {
  private let database = try! AppDatabase.inMemory()
  private var specs: LikesCacheSpecs {
    LikesCacheSpecs { [database] account in GRDBLikesCache(database: database, account: account) }
  }

  @Test func readsNothing_whenEmpty() async throws { try await specs.readsNothing_whenEmpty() }
  @Test func readsAPageBack() async throws {
    try await specs.readsAPageBack_withOrderCursorAndTime()
  }
  @Test func storingAgainReplaces() async throws { try await specs.storingAPageAgain_replacesIt() }
  @Test func findsByPrefix() async throws { try await specs.findsWhoWasShown_byIDPrefix() }
  @Test func shownOutlivesPages() async throws {
    try await specs.whoWasShown_outlivesPagesOutOfDate_untilDeleteAll()
  }
  @Test func markingOutOfDate() async throws {
    try await specs.markingOutOfDate_keepsEveryLikesPageMarkedSo_untilStoredAgain_andLeavesMutuals()
  }
  @Test func accountsApart() async throws {
    try await specs.accountsNeverSeeEachOther_andDeleteAllIsPerAccount()
  }

  @Test func unblurState_isKeptPerAccount() async throws {
    let alice = GRDBNotificationCenterStateStore(database: database, account: "alice")
    let bob = GRDBNotificationCenterStateStore(database: database, account: "bob")
    let end = Date(timeIntervalSince1970: 1_800_000_120)
    try await alice.setUnblurEndDate(end)
    #expect(try await alice.unblurEndDate() == end)
    #expect(try await bob.unblurEndDate() == nil)
  }

  @Test func unreadBadge_countsPerAccount_andSurvivesTheUnblurWindow() async throws {
    let alice = GRDBNotificationCenterStateStore(database: database, account: "alice")
    let bob = GRDBNotificationCenterStateStore(database: database, account: "bob")

    #expect(try await alice.countLike(seq: 7, unkept: 0) == 1)
    #expect(try await alice.countLike(seq: 8, unkept: 0) == 2)
    try await alice.setUnblurEndDate(Date(timeIntervalSince1970: 1))
    #expect(try await alice.unreadCount() == 2, "setting the window keeps the badge")
    #expect(try await bob.unreadCount() == 0)
    _ = try await alice.look(clearingUnread: true)
    #expect(try await alice.unreadCount() == 0)
    #expect(try await alice.unblurEndDate() == Date(timeIntervalSince1970: 1))
  }

  @Test func aLook_readsTheWindowAndTheBadgeTogether_andClearsOnlyWhenAsked() async throws {
    let alice = GRDBNotificationCenterStateStore(database: database, account: "alice")
    let bob = GRDBNotificationCenterStateStore(database: database, account: "bob")
    #expect(try await alice.look(clearingUnread: true) == .init(unblurEndDate: nil, unread: 0))
    let end = Date(timeIntervalSince1970: 1_800_000_120)
    try await alice.setUnblurEndDate(end)
    _ = try await alice.countLike(seq: 1, unkept: 1)
    _ = try await bob.countLike(seq: 1, unkept: 4)

    #expect(try await alice.look(clearingUnread: false) == .init(unblurEndDate: end, unread: 2))
    #expect(try await alice.look(clearingUnread: true) == .init(unblurEndDate: end, unread: 2))
    #expect(try await alice.look(clearingUnread: false) == .init(unblurEndDate: end, unread: 0))
    #expect(try await bob.unreadCount() == 5, "another account's badge stays")
  }

  @Test func aCorruptFile_isMovedAside_andANewOneStarted() async throws {
    try await withTemporaryCacheFile { file in
      try Data(repeating: 0x42, count: 8192).write(to: file)

      let (database, recovery) = try await AppDatabase.open(
        at: file, now: { Date(timeIntervalSince1970: 1_800_000_000) })

      #expect(
        recovery
          == .rebuilt(
            movedTo: file.deletingLastPathComponent().appendingPathComponent(
              "app.corrupt-1800000000.sqlite"
            ).path))
      #expect(
        FileManager.default.fileExists(
          atPath: file.deletingLastPathComponent().appendingPathComponent(
            "app.corrupt-1800000000.sqlite"
          ).path))
      let cache = GRDBLikesCache(database: database, account: "alice")
      try await cache.store(LikesCacheSpecs.page(["a"], next: nil), number: 1, batchSize: 10)
      #expect(try await cache.page(1, batchSize: 10)?.users.count == 1)
    }
  }
}
