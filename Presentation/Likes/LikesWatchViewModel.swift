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

  private let events: @Sendable () -> AsyncThrowingStream<RealtimeEvent, any Error>
  private let isBlurred: @Sendable () async throws -> Bool
  private let newLikeArrived: @Sendable (LikedUser) async throws -> Int

  /// `newLikeArrived` keeps who was shown, raises the kept unread badge and returns it
  /// (`UnreadBadgeUseCase`).
  public init(
    events: @escaping @Sendable () -> AsyncThrowingStream<RealtimeEvent, any Error>,
    isBlurred: @escaping @Sendable () async throws -> Bool,
    newLikeArrived: @escaping @Sendable (LikedUser) async throws -> Int
  ) {
    self.events = events
    self.isBlurred = isBlurred
    self.newLikeArrived = newLikeArrived
  }

  /// Watches until the task is cancelled or the stream ends.
  public func run() async {
    state.failure = nil
    do {
      for try await event in events() {
        switch event {
        case .likedYouInserted(let user):
          // The watch can end at any await: read first, raise the kept badge last, and count
          // the like only together with showing it, so the summary and the badge never
          // include a like the person did not see.
          let item = LikeItem.likedYou(user, isBlurred: try await isBlurred())
          state.unread = try await newLikeArrived(user)
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
