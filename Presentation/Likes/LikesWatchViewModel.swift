import Domain

/// Realtime updates of the notification center: each new like (blurred as the list is right
/// now) raises the unread badge; each mutual match is announced.
@MainActor
public final class LikesWatchViewModel {
  public enum Update: Equatable, Sendable {
    case newLike(LikeItem, unread: Int)
    case match(String)
  }

  public struct State: Equatable, Sendable {
    /// Likes seen while watching.
    public var newLikes = 0
    /// The unread badge, kept across runs.
    public var unread = 0
    public var matches = 0
    /// Why watching stopped early (the session ended, the server failed).
    public var failure: UserFacingError?
  }

  public private(set) var state = State()
  /// Called for every change a person should see, in order.
  public var onUpdate: ((Update) -> Void)?

  /// What the view model calls, made in the composition root.
  public struct Actions: Sendable {
    /// The realtime events, from the start of a watch.
    public var events: @Sendable () -> AsyncThrowingStream<RealtimeEvent, any Error>
    /// Whether the list is blurred right now (`UnblurUseCase`).
    public var isBlurred: @Sendable () async throws -> Bool
    /// Keeps who was shown, raises the kept unread badge and returns it (`UnreadBadgeUseCase`).
    public var newLikeArrived: @Sendable (LikedUser) async throws -> Int

    public init(
      events: @escaping @Sendable () -> AsyncThrowingStream<RealtimeEvent, any Error>,
      isBlurred: @escaping @Sendable () async throws -> Bool,
      newLikeArrived: @escaping @Sendable (LikedUser) async throws -> Int
    ) {
      self.events = events
      self.isBlurred = isBlurred
      self.newLikeArrived = newLikeArrived
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  /// Watches until the task is cancelled or the stream ends.
  public func run() async {
    state.failure = nil
    do {
      for try await event in actions.events() {
        switch event {
        case .likedYouInserted(let user):
          // The watch can end at any await: read first, raise the kept badge last, and count
          // the like only together with showing it, so the summary and the badge never
          // include a like the person did not see.
          let item = LikeItem.likedYou(user, isBlurred: try await actions.isBlurred())
          state.unread = try await actions.newLikeArrived(user)
          state.newLikes += 1
          onUpdate?(.newLike(item, unread: state.unread))
        case .mutualMatch(let user):
          state.matches += 1
          onUpdate?(.match("It's a match with \(user.userName)!"))
        }
      }
    } catch is CancellationError {
    } catch {
      state.failure = UserFacingError(error)
    }
  }
}
