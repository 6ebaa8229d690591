import Domain

/// Realtime updates of the notification center: each new like (blurred as the list is right
/// now) raises the unread badge; each mutual match raises a banner that goes away by itself
/// after `bannerDuration` on the injected clock.
@MainActor
public final class LikesWatchViewModel {
  public enum Update: Equatable, Sendable {
    case newLike(LikeItem, unread: Int)
    case banner(String)
    case bannerDismissed
  }

  public struct State: Equatable, Sendable {
    /// Likes seen while watching.
    public var newLikes = 0
    /// The unread badge, kept across runs.
    public var unread = 0
    public var matches = 0
    public var banner: String?
    /// Why watching stopped early (the session ended, the server failed).
    public var failure: UserFacingError?
  }

  public private(set) var state = State()
  /// Called for every change a person should see, in order.
  public var onUpdate: ((Update) -> Void)?

  private let events: @Sendable () -> AsyncThrowingStream<RealtimeEvent, any Error>
  private let isBlurred: @Sendable () async throws -> Bool
  private let newLikeArrived: @Sendable () async throws -> Int
  private let clock: any Clock<Duration>
  private let bannerDuration: Duration
  private var dismissal: Task<Void, Never>?

  /// `newLikeArrived` raises the kept unread badge and returns it (`UnreadBadgeUseCase`).
  public init(
    events: @escaping @Sendable () -> AsyncThrowingStream<RealtimeEvent, any Error>,
    isBlurred: @escaping @Sendable () async throws -> Bool,
    newLikeArrived: @escaping @Sendable () async throws -> Int,
    clock: any Clock<Duration>, bannerDuration: Duration = .seconds(10)
  ) {
    self.events = events
    self.isBlurred = isBlurred
    self.newLikeArrived = newLikeArrived
    self.clock = clock
    self.bannerDuration = bannerDuration
  }

  /// Watches until the task is cancelled or the stream ends.
  public func run() async {
    do {
      for try await event in events() {
        switch event {
        case .likedYouInserted(let user):
          state.newLikes += 1
          state.unread = try await newLikeArrived()
          let item = LikeItem.likedYou(user, isBlurred: try await isBlurred())
          onUpdate?(.newLike(item, unread: state.unread))
        case .mutualMatch(let user):
          state.matches += 1
          show(banner: "It's a match with \(user.userName)!")
        }
      }
    } catch is CancellationError {
    } catch {
      state.failure = UserFacingError(error)
    }
    dismissal?.cancel()
  }

  private func show(banner: String) {
    // A new banner replaces the one on screen and gets its own full time.
    dismissal?.cancel()
    state.banner = banner
    onUpdate?(.banner(banner))
    let clock = clock
    let duration = bannerDuration
    dismissal = Task { [weak self] in
      do {
        try await clock.sleep(for: duration)
      } catch {
        return
      }
      self?.dismissBanner()
    }
  }

  private func dismissBanner() {
    guard state.banner != nil else { return }
    state.banner = nil
    onUpdate?(.bannerDismissed)
  }
}
