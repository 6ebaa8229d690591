import Foundation

/// Everything the likes use cases share: the remote API, the cache, the unblur state, the
/// signed-in access and the current time.
public struct LikesEnvironment: Sendable {
  let remote: any LikesRemoteAPI
  let cache: any LikesCache
  let state: any NotificationCenterStateStore
  let access: SignedInAccess
  let now: @Sendable () -> Date
  /// What the files could not keep this run; shared by every copy of this environment.
  let unkept = UnkeptLikes()

  public init(
    remote: any LikesRemoteAPI, cache: any LikesCache, state: any NotificationCenterStateStore,
    access: SignedInAccess, now: @escaping @Sendable () -> Date
  ) {
    self.remote = remote
    self.cache = cache
    self.state = state
    self.access = access
    self.now = now
  }

  func isBlurred() async throws -> Bool {
    !UnblurWindow.isOpen(endDate: try await state.unblurEndDate(), now: now())
  }

  /// Marks the cached pages out of date, since the list moved: the next page comes from the
  /// server, and a cached one shows only when the server cannot be reached, said to be out
  /// of date. When the cache cannot mark them (a full disk), this run remembers it
  /// (`UnkeptLikes.pagesOutdated`) until it can, and the failure is returned, to be said.
  func markCachedPagesOutOfDate() async throws -> LocalStorageError? {
    unkept.markPagesOutdated()
    do {
      try await cache.markPagesOutOfDate()
      unkept.pagesMarked()
      return nil
    } catch let error as LocalStorageError {
      return error
    }
  }

  /// Puts a new match first in the cached mutuals. The mutuals come from the server whenever
  /// it answers; a cache that cannot take the match (a full disk) misses it until the next
  /// load, which is no reason to say the like failed.
  func rememberMatch(_ user: LikedUser) async throws {
    let cached = try await cache.mutuals()
    let users = [user] + (cached?.users ?? []).filter { $0.id != user.id }
    do {
      try await cache.storeMutuals(
        CachedLikesPage(users: users, nextCursor: nil, fetchedAt: cached?.fetchedAt ?? now()))
    } catch is LocalStorageError {}
  }

  /// Whether the cached mutuals, as this device last knew them, have somebody of that
  /// username: a message refused to them means they have just unmatched.
  public func wasMatch(named userName: String) async -> Bool {
    let cached = try? await cache.mutuals()
    return cached?.users.contains { $0.userName == userName } ?? false
  }

  /// Remembers who was shown, with anybody shown earlier whom the cache could not take then.
  /// When it cannot take them now either, this run remembers them, so that their ids can
  /// still be typed back, and the failure is returned.
  func rememberShown(_ users: [LikedUser]) async throws -> LocalStorageError? {
    let waiting = unkept.shown
    do {
      try await cache.rememberShown(waiting + users)
      unkept.shownKept(waiting)
      return nil
    } catch let error as LocalStorageError {
      unkept.addShown(users)
      return error
    }
  }

  /// Everybody shown to this account whose id starts with `prefix`: the cache's, and this
  /// run's that the cache could not take.
  func shownLikes(withIDPrefix prefix: String) async throws -> [LikedUser] {
    try await cache.shownLikes(withIDPrefix: prefix) + unkept.shown(withIDPrefix: prefix)
  }
}
