import Foundation

/// The unread badge: raised by realtime likes, shown in the list's footer, cleared when
/// the first page (where new likes land) has been seen (`ViewLikesPageUseCase`).
public struct UnreadBadgeUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  public func count() async throws -> Int { try await environment.state.unreadCount() }
  /// A like arrived while watching and was shown: its id can be typed back, the badge goes
  /// up by one, and the cached pages go, since the new like now stands first on page 1 and
  /// pushes every other one along: the next page shown comes from the server, with it.
  public func newLikeArrived(_ user: LikedUser) async throws -> Int {
    try await environment.cache.rememberShown([user])
    try await environment.cache.invalidateLikes()
    return try await environment.state.addUnread(1)
  }

  /// The realtime watch missed a while (a gap, or a server whose events were reset): the
  /// cached pages may hold people who left and miss people who came, so they go, and the
  /// next page comes from the server.
  public func pagesOutdated() async throws {
    try await environment.cache.invalidateLikes()
  }
}
