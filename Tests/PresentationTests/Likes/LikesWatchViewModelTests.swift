import Domain
import Presentation
import Synchronization
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct LikesWatchViewModelTests {
  @Test func newLikes_raiseTheKeptBadge_andInheritTheCurrentBlur() async throws {
    let (stream, continuation) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let blurred = LockedFlag(true)
    let badge = Badge(5)
    let sut = LikesWatchViewModel(
      actions: .init(
        events: { stream }, isBlurred: { blurred.value },
        newLikeArrived: { _, _ in
          badge.value += 1
          return (badge.value, nil)
        }))
    var updates: [LikesWatchViewModel.Update] = []
    sut.onUpdate = { updates.append($0) }
    let watching = Task { await sut.run() }

    continuation.yield(.event(.likedYouInserted(user("a")), seq: 1))
    try await waitUntil("the watch shows an update") { !updates.isEmpty }
    blurred.value = false
    continuation.yield(.event(.likedYouInserted(user("b")), seq: 2))
    continuation.yield(.event(.mutualMatch(user("zoe")), seq: 3))
    continuation.finish()
    await watching.value

    #expect(
      updates == [
        .newLike(.likedYou(user("a"), isBlurred: true), unread: 6),
        .newLike(.likedYou(user("b"), isBlurred: false), unread: 7),
        .match("It's a match with zoe!", id: "zoe"),
      ], "the badge goes on from where it was kept")
    #expect(sut.state.newLikes == 2)
    #expect(sut.state.matches == 1)
  }

  @Test func aLikeCutOffByTheEndOfTheWatch_isNeitherCountedNorAddedToTheBadge() async {
    let (stream, continuation) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let blurReads = AsyncStream<Void>.makeStream()
    let badge = Badge(5)
    let stopped = ManualClock()
    let sut = LikesWatchViewModel(
      actions: .init(
        events: { stream },
        isBlurred: {
          blurReads.continuation.yield()
          // The watch ends while the blur is being read: this clock never moves, so only the
          // cancellation ends the read.
          try await stopped.sleep(for: .seconds(1))
          return true
        },
        newLikeArrived: { _, _ in
          badge.value += 1
          return (badge.value, nil)
        }))
    var updates: [LikesWatchViewModel.Update] = []
    sut.onUpdate = { updates.append($0) }
    let watching = Task { await sut.run() }

    continuation.yield(.event(.likedYouInserted(user("a")), seq: 4))
    var reads = blurReads.stream.makeAsyncIterator()
    _ = await reads.next()
    watching.cancel()
    await watching.value

    #expect(updates.isEmpty)
    #expect(sut.state.newLikes == 0, "the summary counts only likes that were shown")
    #expect(badge.value == 5, "the badge counts only likes that were shown")
  }

  @Test func eventsThatStandBelowTheCounted_startTheBadgeAgain_andSaySo() async throws {
    let (stream, continuation) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let stands = Badge(0)
    let sut = LikesWatchViewModel(
      actions: .init(
        events: { stream }, isBlurred: { true }, newLikeArrived: { _, _ in (1, nil) },
        eventsStand: { last in
          stands.value = last
          return last < 25 ? 0 : 7
        }))
    var updates: [LikesWatchViewModel.Update] = []
    sut.onUpdate = { updates.append($0) }
    let watching = Task { await sut.run() }

    continuation.yield(.watching(from: 30))
    try await waitUntil("the badge as kept") { sut.state.unread == 7 }
    continuation.yield(.serverReset(last: 3))
    try await waitUntil("the badge started again") { sut.state.unread == 0 }
    continuation.finish()
    await watching.value

    #expect(updates == [.unreadChanged(7), .unreadChanged(0)])
    #expect(stands.value == 3)
  }

  @Test func anEndedSession_stopsWatching_withTheReason() async {
    let sut = LikesWatchViewModel(
      actions: .init(
        events: {
          AsyncThrowingStream { $0.finish(throwing: SessionError.expired(username: "me")) }
        },
        isBlurred: { true }, newLikeArrived: { _, _ in (1, nil) }))

    await sut.run()

    #expect(sut.state.failure?.code == "session_expired")
  }

  private func user(_ id: String) -> LikedUser {
    LikedUser(id: id, userName: id, avatarURL: nil)
  }
}

/// A Bool that a test flips while a view model reads it from another task.
private final class LockedFlag: Sendable {
  private let stored: Mutex<Bool>
  init(_ value: Bool) { stored = Mutex(value) }
  var value: Bool {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }
}

/// The watch through its server's life: a run of failures and its end are each handed on
/// once, and both a gap and a reset server drop the cached pages.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct LikesWatchRecoveryTests {
  @Test func anInterruption_andItsEnd_areHandedOn_andTheGapDropsTheCachedPages() async throws {
    let (stream, server) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let drops = Badge(0)
    let sut = LikesWatchViewModel(
      actions: .init(
        events: { stream }, isBlurred: { true }, newLikeArrived: { _, _ in (1, nil) },
        pagesOutdated: {
          drops.value += 1
          return nil
        }))
    var updates: [LikesWatchViewModel.Update] = []
    sut.onUpdate = { updates.append($0) }
    let watching = Task { await sut.run() }

    server.yield(.interrupted(RemoteAPIError.server(status: 500, code: nil, description: nil)))
    try await waitUntil("the interruption") { sut.state.interruption != nil }
    #expect(sut.state.interruption?.code == "server_error")
    server.yield(.resumed)
    server.yield(.serverReset(last: 0))
    server.yield(
      .event(.likedYouInserted(LikedUser(id: "n", userName: "N", avatarURL: nil)), seq: 5))
    try await waitUntil("the like after the gap") { sut.state.newLikes == 1 }

    #expect(sut.state.interruption == nil)
    #expect(drops.value == 2, "a gap and a reset each drop the cached pages")
    #expect(updates.count == 3)
    #expect(updates.first.map { if case .interrupted = $0 { true } else { false } } == true)
    #expect(updates.dropFirst().first == .resumed)
    #expect(sut.state.failure == nil, "the watch goes on")
    watching.cancel()
    await watching.value
  }
  @Test func likesTheFilesCannotKeep_stillShow_saidOnceForEachRunOfThem() async throws {
    let (stream, server) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let full = LocalStorageError(file: "/data/app.sqlite", problem: .diskFull)
    // Full for the first two likes, kept for the third, full again for the fourth.
    let kept: [LocalStorageError?] = [full, full, nil, full]
    let badge = Badge(0)
    let sut = LikesWatchViewModel(
      actions: .init(
        events: { stream }, isBlurred: { true },
        newLikeArrived: { _, _ in
          badge.value += 1
          return (badge.value, kept[badge.value - 1])
        }))
    var updates: [LikesWatchViewModel.Update] = []
    sut.onUpdate = { updates.append($0) }
    let watching = Task { await sut.run() }

    for id in ["a", "b", "c", "d"] {
      server.yield(
        .event(.likedYouInserted(LikedUser(id: id, userName: id, avatarURL: nil)), seq: 6))
    }
    try await waitUntil("four likes") { sut.state.newLikes == 4 }

    let notKept = LikesWatchViewModel.Update.notKept(UserFacingError(full))
    let like = { (id: String, unread: Int) in
      LikesWatchViewModel.Update.newLike(
        .likedYou(LikedUser(id: id, userName: id, avatarURL: nil), isBlurred: true),
        unread: unread)
    }
    #expect(
      updates == [like("a", 1), notKept, like("b", 2), like("c", 3), like("d", 4), notKept],
      "each like shows; the full disk is said after the first of each run")
    #expect(sut.state.notKept == UserFacingError(full))
    #expect(sut.state.failure == nil, "a full disk does not end the watch")
    watching.cancel()
    await watching.value
  }

  @Test func aBlurThatCannotBeRead_showsTheLikeBlurred_saysSo_andTheWatchGoesOn() async throws {
    let (stream, server) = AsyncThrowingStream<RealtimeSignal, any Error>.makeStream()
    let unreadable = LocalStorageError(file: "/data/app.sqlite", problem: .ioFailure)
    // The window is unreadable for the first like and reads "unblurred" for the second.
    let reads = Badge(0)
    let badge = Badge(0)
    let sut = LikesWatchViewModel(
      actions: .init(
        events: { stream },
        isBlurred: {
          reads.value += 1
          if reads.value == 1 { throw unreadable }
          return false
        },
        newLikeArrived: { _, _ in
          badge.value += 1
          return (badge.value, nil)
        }))
    var updates: [LikesWatchViewModel.Update] = []
    sut.onUpdate = { updates.append($0) }
    let watching = Task { await sut.run() }

    server.yield(.event(.likedYouInserted(person("a")), seq: 7))
    try await waitUntil("the first like") { sut.state.newLikes == 1 }
    #expect(sut.state.notKept == UserFacingError(unreadable))
    server.yield(.event(.likedYouInserted(person("b")), seq: 8))
    try await waitUntil("the second like") { sut.state.newLikes == 2 }

    #expect(
      updates == [
        .newLike(.likedYou(person("a"), isBlurred: true), unread: 1),
        .notKept(UserFacingError(unreadable)),
        .newLike(.likedYou(person("b"), isBlurred: false), unread: 2),
      ], "shown blurred while unreadable, said once, then as the window reads")
    #expect(sut.state.notKept == nil, "the files answer again")
    #expect(sut.state.failure == nil, "an unreadable window does not end the watch")
    watching.cancel()
    await watching.value
  }

  private func person(_ id: String) -> LikedUser {
    LikedUser(id: id, userName: id, avatarURL: nil)
  }
}
