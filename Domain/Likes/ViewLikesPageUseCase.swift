import Foundation

/// What a look at a page of people who liked you shows.
public struct LikesPageView: Equatable, Sendable {
  public let page: LikesPage
  /// Whole seconds left in the unblur window, or nil when everything is blurred.
  public let unblurSecondsLeft: Int?
  /// The unread badge as it stood when the page was shown: the likes new since page 1 was
  /// last looked at, which the page's footer counts.
  public let unread: Int
  /// The badge as it stands after this look: 0 once page 1, where new likes land, is shown.
  public let badge: Int
  /// Why this machine's files could not keep the page (or clear the badge), when they could
  /// not: the page shows all the same, with this said once.
  public let storageTrouble: LocalStorageError?

  public init(
    page: LikesPage, unblurSecondsLeft: Int?, unread: Int, badge: Int? = nil,
    storageTrouble: LocalStorageError? = nil
  ) {
    self.page = page
    self.unblurSecondsLeft = unblurSecondsLeft
    self.unread = unread
    self.badge = badge ?? unread
    self.storageTrouble = storageTrouble
  }
}

/// A page view: the page (`LoadLikesPageUseCase`), then one read of the notification
/// center's state for the blur, the seconds of unblur left and the unread badge. New likes
/// land on the first page, so showing it clears the badge in that same read: a like that
/// arrives meanwhile is counted after it, never cleared unseen.
///
/// The state is read after the page is in hand, so a page that cannot be shown clears
/// nothing.
public struct ViewLikesPageUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  public func execute(_ request: LikesPageRequest) async throws -> LikesPageView {
    let people = try await LoadLikesPageUseCase(environment).people(request)
    var clearing = request.page == 1
    var trouble = people.storageTrouble
    let state: NotificationCenterState
    do {
      state = try await environment.state.look(clearingUnread: clearing)
    } catch let error as LocalStorageError {
      // The badge could not be cleared (a full disk): the page shows, the badge stays.
      trouble = trouble ?? error
      clearing = false
      state =
        (try? await environment.state.look(clearingUnread: false))
        ?? NotificationCenterState(unblurEndDate: nil, unread: 0)
    }
    // Likes this run could not keep count as well, and are seen with page 1 like the rest.
    let unread =
      state.unread + (clearing ? environment.unkept.takeUnread() : environment.unkept.unread)
    let now = environment.now()
    return LikesPageView(
      page: people.page(blurred: !UnblurWindow.isOpen(endDate: state.unblurEndDate, now: now)),
      unblurSecondsLeft: UnblurWindow.secondsLeft(endDate: state.unblurEndDate, now: now),
      unread: unread, badge: clearing ? 0 : unread, storageTrouble: trouble)
  }
}
