import Foundation

/// The local copy of one account's likes and mutuals (the seed's `LikeLocalApi`).
///
/// Pages are kept per batch size, since page 2 of 10 is not page 2 of 20. Blur is not kept:
/// it is worked out when a page is shown, so a cached page can never show a stale blur.
public protocol LikesCache: Sendable {
  func page(_ number: Int, batchSize: Int) async throws -> CachedLikesPage?
  func store(_ page: CachedLikesPage, number: Int, batchSize: Int) async throws
  /// Keeps who was shown to the person (a page, the mutuals, a like that arrived while
  /// watching), so that the ids they saw can be typed back. Kept until sign-out.
  func rememberShown(_ users: [LikedUser]) async throws
  /// Everybody ever shown to this account whose id starts with `prefix`, whatever pages
  /// were invalidated since.
  func shownLikes(withIDPrefix prefix: String) async throws -> [LikedUser]
  /// Marks every cached page of people who liked you out of date (a like arrived or was
  /// answered, so the pages shift): kept, but read back with `isOutOfDate`.
  func markPagesOutOfDate() async throws
  func mutuals() async throws -> CachedLikesPage?
  func storeMutuals(_ page: CachedLikesPage) async throws
  /// Everything this account has cached, for sign-out.
  func deleteAll() async throws
}

/// A page as the cache keeps it.
public struct CachedLikesPage: Equatable, Sendable {
  public let users: [LikedUser]
  public let nextCursor: Int?
  public let fetchedAt: Date
  /// The list has moved since the page was fetched (a like arrived or was answered): it is
  /// asked of the server again, and shown only when the server cannot be reached, said to
  /// be out of date.
  public let isOutOfDate: Bool

  public init(users: [LikedUser], nextCursor: Int?, fetchedAt: Date, isOutOfDate: Bool = false) {
    self.users = users
    self.nextCursor = nextCursor
    self.fetchedAt = fetchedAt
    self.isOutOfDate = isOutOfDate
  }
}
