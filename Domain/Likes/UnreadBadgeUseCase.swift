import Foundation

/// The unread badge: raised by realtime likes, shown in the list's footer, cleared when
/// the first page (where new likes land) has been seen (`ViewLikesPageUseCase`).
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

  /// A like arrived while watching and was shown: its id can be typed back, the badge goes
  /// up by one, and the cached pages go, since the new like now stands first on page 1 and
  /// pushes every other one along: the next page shown comes from the server, with it.
  /// Returns the badge, and why the files could not keep the like, when they could not.
  public func newLikeArrived(_ user: LikedUser) async throws -> (
    unread: Int, storageTrouble: LocalStorageError?
  ) {
    var trouble = try await environment.rememberShown([user])
    let dropTrouble = try await environment.dropCachedPages()
    trouble = trouble ?? dropTrouble
    let unkept = environment.unkept
    let adding = unkept.takeUnread() + 1
    do {
      return (try await environment.state.addUnread(adding), trouble)
    } catch let error as LocalStorageError {
      unkept.addUnread(adding)
      let kept = (try? await environment.state.unreadCount()) ?? 0
      return (kept + unkept.unread, trouble ?? error)
    } catch {
      // Not counted (the watch ended meanwhile): the likes taken from memory go back.
      unkept.addUnread(adding - 1)
      throw error
    }
  }

  /// The realtime watch missed a while (a gap, or a server whose events were reset): the
  /// cached pages may hold people who left and miss people who came, so they go, and the
  /// next page comes from the server. Returns why they could not go, when they could not:
  /// the next pages come from the server all the same.
  public func pagesOutdated() async throws -> LocalStorageError? {
    try await environment.dropCachedPages()
  }
}
