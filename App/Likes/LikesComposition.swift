import Domain
import Foundation
import Presentation

/// The composition of the likes commands: the signed-in user's notification center over the
/// app's database, its use cases and its clocks. Commands get view models from here and never
/// name a use case, a store or a clock. Signed out is exit 4 before any request, and before
/// any database is created.
@MainActor
struct LikesComposition {
  let command: CommandContext
  private let environment: LikesEnvironment

  init(options: GlobalOptions, io: AppIO, jsonLines: Bool = false) async throws {
    try await self.init(try await CommandContext(options: options, io: io, jsonLines: jsonLines))
  }

  /// `meanwhile` says what was done when the cache is opened again mid-session (a file
  /// found unreadable, its folder removed): as a warning on the console, unless the front
  /// end says it another way (the shell, above its prompt).
  init(
    _ command: CommandContext, meanwhile: (@Sendable (String) -> Void)? = nil
  ) async throws {
    self.command = command
    let console = command.console
    let root = command.root
    // An existing cache is opened while the keyring is asked whose it is: the two waits
    // (a D-Bus exchange, a file lock and SQLite's set-up) overlap instead of adding up.
    // A file found unreadable when it is opened again mid-session is said like one found now.
    let reopenedNotice: @Sendable (String) -> Void = meanwhile ?? { console.warning($0) }
    async let existingDatabase = root.openExistingAppDatabase(notice: reopenedNotice)
    // The account alone: a cached page needs no token, and reading one costs the keyring an
    // encrypted exchange. Requests read the token when they are made (`SignedInAccess`).
    let username: String?
    do {
      username = try await root.sessionStore.signedInUsername()
    } catch {
      throw console.fail(UserFacingError(error))
    }
    // Awaited before "not signed in" too: a file moved aside is said, whoever is signed in.
    let opened = await existingDatabase
    guard let username else {
      if case .success((_, let recovery)) = opened, let notice = recovery.notice {
        console.warning(notice)
      }
      throw console.fail(command.notSignedIn(notice: nil))
    }
    do {
      let (database, recovery) =
        if let opened {
          try opened.get()
        } else {
          try await root.openAppDatabase(notice: reopenedNotice)
        }
      if let notice = recovery.notice { console.warning(notice) }
      environment = command.root.likesEnvironment(database: database, username: username)
      // Open until the process exits: closing SQLite's last connection checkpoints the WAL
      // into the file, a millisecond of every command. Opening empties a long WAL instead
      // (`AppDatabase.longWALBytes`).
      ProcessLifetime.keepUntilExit(environment, io: console.io)
    } catch let error as LocalStorageError {
      throw console.fail(UserFacingError(error))
    } catch {
      throw console.fail(
        UserFacingError(
          code: "cache_unavailable",
          message: "The likes cache cannot be opened: \(UserFacingError.describing(error))"))
    }
  }

  /// The notification center for this account, from its smaller view models. Banners stay
  /// up for their time on the composition's clock.
  func notificationCenter() -> NotificationCenterViewModel {
    let environment = environment
    let events = command.root.realtimeEvents
    let likedYou = LikesViewModel(
      actions: .init(
        viewPage: { try await ViewLikesPageUseCase(environment).execute($0) },
        likeBack: { try await RespondToLikeUseCase(environment).likeBack($0) },
        skip: { try await RespondToLikeUseCase(environment).skip($0) }))
    let watch = LikesWatchViewModel(
      actions: .init(
        events: { events.events() },
        isBlurred: { try await UnblurUseCase(environment).secondsLeft() == nil },
        newLikeArrived: { try await UnreadBadgeUseCase(environment).newLikeArrived($0, seq: $1) },
        eventsStand: { try await UnreadBadgeUseCase(environment).eventsStand(at: $0) },
        pagesOutdated: { try await UnreadBadgeUseCase(environment).pagesOutdated() }))
    return NotificationCenterViewModel(
      likedYou: likedYou,
      mutuals: MutualsViewModel(
        actions: .init(load: { try await LoadMutualsUseCase(environment).execute() })),
      watch: watch, banners: BannerQueue(clock: command.root.clock))
  }

  /// People to meet, and what the person does to them, over this account's likes cache
  /// (whose shown ids resolve the prefixes typed).
  func people() -> PeopleViewModel {
    let meet = MeetPeopleUseCase(likes: environment, remote: command.root.peopleRemote)
    return PeopleViewModel(
      actions: .init(
        page: { try await meet.page($0, batchSize: $1) },
        perform: { try await meet.perform($0, on: $1) }))
  }

  /// The unread likes badge as stored; 0 when it cannot be read (the badge is a hint).
  func unreadCount() async -> Int {
    (try? await UnreadBadgeUseCase(environment).count()) ?? 0
  }

  /// The server confirmed whose account this is: the badge of a new account of the same
  /// name starts again. Returns the badge, or nil when the files cannot say.
  func accountConfirmed(id: String) async -> Int? {
    try? await UnreadBadgeUseCase(environment).accountConfirmed(id: id)
  }

  /// Opens the unblur window; returns when it ends.
  func unblur() async throws -> Date {
    try await UnblurUseCase(environment).execute()
  }

  /// Sleeps for `duration` on the composition's clock (the watch's `--for`).
  func sleep(for duration: Duration) async throws {
    try await command.root.clock.sleep(for: duration)
  }
}
