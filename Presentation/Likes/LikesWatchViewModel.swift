import Domain

/// Realtime updates of the notification center: each new like (blurred as the list is right
/// now) raises the unread badge; each mutual match is announced.
@MainActor
public final class LikesWatchViewModel {
  public enum Update: Equatable, Sendable {
    case newLike(LikeItem, unread: Int)
    /// A mutual match with the person of `id`, and its announcement.
    case match(String, id: String)
    /// A match wrote to the account.
    case message(from: LikedUser, Message)
    /// A match ended the match.
    case unmatched(LikedUser)
    /// The badge changed without a like: it started again (a reset server).
    case unreadChanged(Int)
    /// The watch has kept failing and goes on trying: said once for each run of failures.
    case interrupted(UserFacingError)
    /// It works again after `interrupted`.
    case resumed
    /// This machine's files cannot keep what a like changes (a full disk): the likes still
    /// show, and this run remembers what the files could not. Said once, until a like is
    /// kept again.
    case notKept(UserFacingError)
  }

  public struct State: Equatable, Sendable {
    /// Likes seen while watching.
    public var newLikes = 0
    /// The unread badge, kept across runs.
    public var unread = 0
    public var matches = 0
    /// Messages from matches, and matches ended, seen while watching.
    public var messages = 0
    public var unmatches = 0
    /// Why watching stopped for good (the session ended, the server called the request
    /// wrong).
    public var failure: UserFacingError?
    /// Why the watch is failing while it goes on trying; nil while it works.
    public var interruption: UserFacingError?
    /// Why this machine's files cannot keep new likes; nil while they can.
    public var notKept: UserFacingError?
  }

  public private(set) var state = State()
  /// Called for every change a person should see, in order.
  public var onUpdate: ((Update) -> Void)?

  /// What the view model calls, made in the composition root.
  public struct Actions: Sendable {
    /// The realtime events, from the start of a watch.
    public var events: @Sendable () -> AsyncThrowingStream<RealtimeSignal, any Error>
    /// Whether the list is blurred right now (`UnblurUseCase`).
    public var isBlurred: @Sendable () async throws -> Bool
    /// Keeps who was shown, counts the like of event `seq` into the unread badge (once,
    /// whoever else heard of it) and returns the badge, with why the files could not keep
    /// the like when they could not (`UnreadBadgeUseCase`).
    public var newLikeArrived:
      @Sendable (LikedUser, _ seq: Int) async throws -> (
        unread: Int, storageTrouble: LocalStorageError?
      )
    /// The server's events stand at this number: the badge starts again when they were
    /// reset (`UnreadBadgeUseCase.eventsStand`). Returns the badge.
    public var eventsStand: @Sendable (Int) async throws -> Int
    /// Drops the cached pages, after a gap or a server whose events were reset: the next page
    /// comes from the server, with whatever changed meanwhile (`UnreadBadgeUseCase`). Returns
    /// why the files could not drop them, when they could not.
    public var pagesOutdated: @Sendable () async throws -> LocalStorageError?

    public init(
      events: @escaping @Sendable () -> AsyncThrowingStream<RealtimeSignal, any Error>,
      isBlurred: @escaping @Sendable () async throws -> Bool,
      newLikeArrived:
        @escaping @Sendable (LikedUser, _ seq: Int) async throws -> (
          unread: Int, storageTrouble: LocalStorageError?
        ),
      eventsStand: @escaping @Sendable (Int) async throws -> Int = { _ in 0 },
      pagesOutdated: @escaping @Sendable () async throws -> LocalStorageError? = { nil }
    ) {
      self.events = events
      self.isBlurred = isBlurred
      self.newLikeArrived = newLikeArrived
      self.eventsStand = eventsStand
      self.pagesOutdated = pagesOutdated
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  /// Watches until the task is cancelled or the stream ends: the service tries failed polls
  /// again, so it ends only with the session or a request the server calls wrong.
  public func run() async {
    state.failure = nil
    state.interruption = nil
    state.notKept = nil
    do {
      for try await signal in actions.events() {
        switch signal {
        case .watching(let last):
          await badgeStands(at: last)
        case .event(.likedYouInserted(let user), let seq):
          // The watch can end at any await: read first, raise the kept badge last, and count
          // the like only together with showing it, so the summary and the badge never
          // include a like the person did not see.
          let (isBlurred, unreadable) = try await blurState()
          let item = LikeItem.likedYou(user, isBlurred: isBlurred)
          let arrival = try await actions.newLikeArrived(user, seq)
          state.unread = arrival.unread
          state.newLikes += 1
          onUpdate?(.newLike(item, unread: state.unread))
          note(arrival.storageTrouble ?? unreadable)
        case .event(.mutualMatch(let user), _):
          state.matches += 1
          onUpdate?(.match("It's a match with \(user.userName)!", id: user.id))
        case .event(.message(let user, let message), _):
          state.messages += 1
          onUpdate?(.message(from: user, message))
        case .event(.unmatched(let user), _):
          state.unmatches += 1
          note(try await actions.pagesOutdated())
          onUpdate?(.unmatched(user))
        case .interrupted(let error):
          let interruption = UserFacingError(error)
          state.interruption = interruption
          onUpdate?(.interrupted(interruption))
        case .resumed:
          note(try await actions.pagesOutdated())
          state.interruption = nil
          onUpdate?(.resumed)
        case .serverReset(let last):
          note(try await actions.pagesOutdated())
          await badgeStands(at: last)
        }
      }
    } catch is CancellationError {
    } catch {
      state.failure = UserFacingError(error)
    }
  }

  /// The server's events stand at `last`: a badge that starts again is shown so. A file that
  /// cannot say leaves the badge as it is, and the watch goes on.
  private func badgeStands(at last: Int) async {
    guard let unread = try? await actions.eventsStand(last), unread != state.unread else {
      return
    }
    state.unread = unread
    onUpdate?(.unreadChanged(unread))
  }

  /// Whether a new like shows blurred, and why the files could not say when they could not.
  /// A window that cannot be read (a file the disk fails to give back) shows the like
  /// blurred, as before any unblur, and the watch goes on: one unreadable row must not end
  /// a watch that can still show likes.
  private func blurState() async throws -> (isBlurred: Bool, unreadable: LocalStorageError?) {
    do {
      return (try await actions.isBlurred(), nil)
    } catch let unreadable as LocalStorageError {
      return (true, unreadable)
    }
  }

  /// Says once that the files cannot keep likes, and forgets it when they could again, so
  /// that the next full disk is said too. A full disk does not end the watch: the likes
  /// still show, and the app keeps what the files could not until they can.
  private func note(_ storageTrouble: LocalStorageError?) {
    guard let storageTrouble else {
      state.notKept = nil
      return
    }
    guard state.notKept == nil else { return }
    let failure = UserFacingError(storageTrouble)
    state.notKept = failure
    onUpdate?(.notKept(failure))
  }
}
