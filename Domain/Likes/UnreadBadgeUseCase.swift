import Foundation

/// The unread badge: raised by realtime likes, shown in the list's footer, cleared when
/// the first page (where new likes land) has been seen (`ViewLikesPageUseCase`).
///
/// The badge is kept where every client on the data folder shares it, and counts each like
/// once by its event's number: two shells, or a shell and `likes watch`, on one account and
/// folder hear of the same like, and the badge goes up by one. It starts again when the
/// server's events were reset, or the account is a new one of the same name.
///
/// A like that arrives when this machine's files take no writes (a full disk) still counts:
/// this run keeps what the files could not (`UnkeptLikes`) and writes it down with the next
/// like that can be kept.
public struct UnreadBadgeUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  /// The badge: the kept count and the likes this run could not keep.
  public func count() async throws -> Int {
    try await environment.state.unreadCount() + environment.unkept.unread
  }

  /// The like of event `seq` arrived while watching and was shown: its id can be typed back,
  /// the badge counts it (once, whoever else heard of it), and the cached pages are out of
  /// date, since the new like now stands first on page 1 and pushes every other one along:
  /// the next page shown comes from the server, with it. Returns the badge, and why the
  /// files could not keep the like, when they could not.
  public func newLikeArrived(_ user: LikedUser, seq: Int) async throws -> (
    unread: Int, storageTrouble: LocalStorageError?
  ) {
    var trouble = try await environment.rememberShown([user])
    let outdateTrouble = try await environment.markCachedPagesOutOfDate()
    trouble = trouble ?? outdateTrouble
    let unkept = environment.unkept
    let earlier = unkept.takeUnread()
    do {
      return (try await environment.state.countLike(seq: seq, unkept: earlier), trouble)
    } catch let error as LocalStorageError {
      unkept.addUnread(earlier + 1)
      let kept = (try? await environment.state.unreadCount()) ?? 0
      return (kept + unkept.unread, trouble ?? error)
    } catch {
      // Not counted (the watch ended meanwhile): the likes taken from memory go back.
      unkept.addUnread(earlier)
      throw error
    }
  }

  /// A watch found where the server's events stand. Below what the badge counted, they were
  /// reset (a new database): the badge starts again. Returns the badge.
  public func eventsStand(at last: Int) async throws -> Int {
    try await environment.state.eventsStand(at: last) + environment.unkept.unread
  }

  /// The server confirmed whose account this is. A new account of the same name (its
  /// server started anew) has a badge of its own, starting at none, and the pages cached
  /// for the old one are out of date. Returns the badge.
  public func accountConfirmed(id: String) async throws -> Int {
    if try await environment.state.countsLikes(ofAccount: id) {
      _ = try await environment.markCachedPagesOutOfDate()
    }
    return try await count()
  }

  /// The realtime watch missed a while (a gap, or a server whose events were reset): the
  /// cached pages may hold people who left and miss people who came, so they are out of
  /// date, and the next page comes from the server. Returns why the files could not mark
  /// them, when they could not: the next pages come from the server all the same.
  public func pagesOutdated() async throws -> LocalStorageError? {
    try await environment.markCachedPagesOutOfDate()
  }
}
