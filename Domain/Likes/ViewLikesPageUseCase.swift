import Foundation

/// What a look at a page of people who liked you shows.
public struct LikesPageView: Equatable, Sendable {
  public let page: LikesPage
  /// Whole seconds left in the unblur window, or nil when everything is blurred.
  public let unblurSecondsLeft: Int?
  /// The unread badge as it stood when the page was shown.
  public let unread: Int

  public init(page: LikesPage, unblurSecondsLeft: Int?, unread: Int) {
    self.page = page
    self.unblurSecondsLeft = unblurSecondsLeft
    self.unread = unread
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
    let state = try await environment.state.look(clearingUnread: request.page == 1)
    let now = environment.now()
    return LikesPageView(
      page: people.page(blurred: !UnblurWindow.isOpen(endDate: state.unblurEndDate, now: now)),
      unblurSecondsLeft: UnblurWindow.secondsLeft(endDate: state.unblurEndDate, now: now),
      unread: state.unread)
  }
}
