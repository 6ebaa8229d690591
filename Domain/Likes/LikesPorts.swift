import Foundation

/// The backend's likes endpoints (section 3 of the contract) for the user of `token`.
///
/// Implementations throw `RemoteAPIError`; an unknown id is `LikesError.unknownPerson`.
public protocol LikesRemoteAPI: Sendable {
  /// The seed's `fetchData(page:batchSize:)`: one page of people who liked you, newest first.
  func fetchData(page: Int, batchSize: Int, token: AccessToken) async throws -> (
    data: [LikedUser], nextCursor: Int?
  )
  /// Likes back. Liking somebody who liked you is always a mutual match.
  func like(id: String, token: AccessToken) async throws -> (mutualMatch: Bool, item: LikedUser)
  func skip(id: String, token: AccessToken) async throws
  /// Mutual matches, newest first.
  func fetchMutuals(token: AccessToken) async throws -> [LikedUser]
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

/// Where the notification center's state is kept between runs: the unblur window's end and
/// the unread badge (the seed's `NCStateStore`).
public protocol NotificationCenterStateStore: Sendable {
  func unblurEndDate() async throws -> Date?
  func setUnblurEndDate(_ date: Date?) async throws
  /// The unread badge: likes that arrived since the first page was last looked at.
  func unreadCount() async throws -> Int
  /// Counts the like of event `seq` into the badge, once, however many clients sharing this
  /// state heard of it: it adds one when `seq` is above every event counted so far, and
  /// `unkept` (likes this run heard of but could not count then) in any case. One step;
  /// returns the badge.
  func countLike(seq: Int, unkept: Int) async throws -> Int
  /// The server's events stand at `last`. Below the events counted, they were reset (a new
  /// database): the badge starts again, and counts from `last`. Returns the badge.
  func eventsStand(at last: Int) async throws -> Int
  /// The badge counts the likes of the server's account `id`. When it counted another's (a
  /// new account of the same name, on a server started anew), it starts again, and the
  /// answer is true.
  func countsLikes(ofAccount id: String) async throws -> Bool
  /// The unblur window's end and the unread badge, read together, with the badge cleared in
  /// the same step when `clearingUnread`: a page view's one read of this state.
  func look(clearingUnread: Bool) async throws -> NotificationCenterState
}

/// The notification center's state as one read saw it.
public struct NotificationCenterState: Equatable, Sendable {
  public let unblurEndDate: Date?
  /// The unread badge before any clearing in the same read.
  public let unread: Int

  public init(unblurEndDate: Date?, unread: Int) {
    self.unblurEndDate = unblurEndDate
    self.unread = unread
  }
}

/// Failures with a meaning in the likes feature.
public enum LikesError: Error, Equatable, Sendable {
  case unknownPerson(id: String)
  /// An id prefix that matches more than one cached like.
  case ambiguousID(prefix: String, matches: [String])
  /// An id prefix shorter than the minimum.
  case idTooShort(String)
}
