import Foundation

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
