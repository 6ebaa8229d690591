import Foundation

/// Everything the likes use cases share: the remote API, the cache, the unblur state, the
/// signed-in access and the current time.
public struct LikesEnvironment: Sendable {
  let remote: any LikesRemoteAPI
  let cache: any LikesCache
  let state: any NCStateStore
  let access: SignedInAccess
  let now: @Sendable () -> Date

  public init(
    remote: any LikesRemoteAPI, cache: any LikesCache, state: any NCStateStore,
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
}
