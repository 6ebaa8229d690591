import ArgumentParser
import Domain
import Foundation
import Presentation
import Synchronization

/// `app` with no command: the seed's app as one long-lived session. `MainViewModel` decides
/// between the onboarding and the home (`HomeViewModel`), and is the responder that sign-in,
/// logout and a rejected session report to, so the person moves between them without
/// leaving the process. A typed `HomeCommand` calls the same feature entry points as the
/// command line's `app likes`, `app push` and the rest, on the session's one composition
/// root and the home's one set of features: nothing is parsed twice, and what a screen
/// knows lives as long as the home.
@MainActor
final class ShellSession {
  let io: AppIO
  let root: CompositionRoot
  let console: Console
  /// What every feature the shell calls starts from: its console and the session's root.
  let context: CommandContext
  let input: any ShellInput
  let main: MainViewModel
  var home: HomeViewModel?
  /// The home's features, built when the home opens and kept until it closes.
  var features: HomeFeatures?
  /// A home's asking whether the server is back, while it is out of reach.
  private var reconnecting: Task<Void, Never>?
  /// Rounds of asking started, so that a round that ends knows whether it is still the one.
  private var reconnectRuns = 0
  /// The session's reachability, followed for the prompt and its news.
  private var reachabilityWatch: Task<Void, Never>?
  /// Whether the person was last told the home is offline: offline and `Back online` are each
  /// said once, when the prompt changes.
  private var saidOffline = false
  /// Why realtime stopped, once said: it is said once.
  private var toldRealtimeFailure: UserFacingError?
  /// Whether the person was told realtime keeps failing, so that its return is said too.
  private var toldRealtimeInterrupted = false
  /// The command running, for Ctrl-C to cancel.
  var running: RunningCommand?
  /// The question to the server under way: one at a time, whoever asks.
  private var checking: Task<Void, Never>?
  /// A script's exit code: the first failing line's.
  private var firstFailure: Int32 = 0
  /// The onboarding's welcome is said once each time it is entered.
  private var welcomed = false

  let activity: CommandActivity

  init(io: AppIO, root: CompositionRoot, input: any ShellInput, activity: CommandActivity) {
    self.io = io
    self.activity = activity
    self.root = root
    self.input = input
    console = Console(json: false, io: io, words: .shell)
    context = CommandContext(console: console, root: root)
    main = MainViewModel(repository: root.sessionRepository)
  }

  /// Runs until `quit`, Ctrl-D or the end of the script; returns the exit code.
  func run() async -> Int32 {
    console.message("Checking the session on \(root.backend.displayName)…")
    await main.launch()
    switch main.state {
    case .launchFailed(let error):
      return console.fail(error).rawValue
    case .onboarding(.sessionExpired(let username)):
      console.warning(
        "The session of \(username) has expired or was revoked; please sign in again.")
    case .onboarding(nil), .signedIn, .signedInOffline, .launching:
      break
    }
    main.onStateChange = { [weak self] state in self?.mainChanged(state) }
    let changes = root.reachability.changes()
    reachabilityWatch = Task { [weak self] in
      for await _ in changes { self?.reachabilityChanged() }
    }
    var going = true
    while going {
      switch main.state {
      case .signedIn(let session): going = await homeTurn(.online(session))
      case .signedInOffline(let account, let reason):
        going = await homeTurn(.offline(account, reason: reason))
      case .onboarding: going = await onboardingTurn()
      case .launching, .launchFailed: going = false
      }
    }
    reconnecting?.cancel()
    reachabilityWatch?.cancel()
    home?.stopRealtime()
    // A question to the server under way ends with the shell: nothing of it runs after.
    checking?.cancel()
    await checking?.value
    return input.isInteractive ? 0 : firstFailure
  }

  // MARK: - The onboarding

  private func onboardingTurn() async -> Bool {
    if !welcomed {
      welcomed = true
      console.message(
        "You are not signed in to \(root.backend.displayName). Type `login`, `signup` or `help`.")
      input.completionChanged(ShellCompletion.Context(signedIn: false))
    }
    let line: String
    switch await input.read(prompt: "\(root.backend.promptName) (signed out)> ") {
    case .ended: return false
    case .interrupted, .abandoned: return true
    case .line(let text): line = text
    }
    let command: OnboardingCommand
    do {
      guard let parsed = try OnboardingCommand.parse(line) else { return true }
      command = parsed
    } catch {
      refused(line, error)
      return true
    }
    input.remember(line.trimmingCharacters(in: .whitespaces))
    do {
      let flow = OnboardingFlow(context: context, main: main)
      switch command {
      case .login(let username): try await flow.signInOnce(username: username)
      case .signup: try await flow.signUpOnce()
      case .clear: input.clearScreen()
      case .help: console.message(OnboardingCommand.helpLines.joined(separator: "\n"))
      case .quit: return false
      }
    } catch let code as ExitCode {
      failed(code.rawValue)
    } catch is QuestionCancelled {
      // Back to the signed-out prompt: the editor has said so on the question's line.
    } catch {
      failed(UserFacingError(error))
    }
    return true
  }

  // MARK: - The home

  /// The home as `MainViewModel` has it: confirmed by the server, or kept here only.
  private enum Entry {
    case online(UserSession)
    case offline(RemoteUserSession, reason: UserFacingError)

    var account: RemoteUserSession {
      switch self {
      case .online(let session): session.remoteSession
      case .offline(let account, _): account
      }
    }
  }

  private func homeTurn(_ entry: Entry) async -> Bool {
    guard let home = await enterHome(entry) else { return false }
    let line: String
    switch await input.read(prompt: prompt(home)) {
    case .ended: return false
    case .interrupted, .abandoned: return true
    case .line(let text): line = text
    }
    let command: HomeCommand
    do {
      guard let parsed = try HomeCommand.parse(line) else { return true }
      command = parsed
    } catch {
      refused(line, error)
      return true
    }
    input.remember(line.trimmingCharacters(in: .whitespaces))
    return await perform(command, home: home)
  }

  /// A line that is not a command as written: said, and kept in the history when it is
  /// worth mending (`HomeCommand.keepsInHistory`).
  private func refused(_ line: String, _ error: UserFacingError) {
    if HomeCommand.keepsInHistory(refused: line) {
      input.remember(line.trimmingCharacters(in: .whitespaces))
    }
    failed(error)
  }

  /// The home for the account signed in, made when it opens: online, or offline on what
  /// this machine has until the server answers.
  private func enterHome(_ entry: Entry) async -> HomeViewModel? {
    if let home, home.account == entry.account { return home }
    let likes: LikesFeature
    do {
      likes = LikesFeature(
        try await LikesComposition(context) { [weak self] notice in
          Task { @MainActor in self?.tellMeanwhile("warning: \(notice)") }
        })
    } catch {
      // Reported already; without the likes cache there is no home to show.
      failed(ExitCodes.failure.rawValue)
      return nil
    }
    features = HomeFeatures(
      likes: likes, messages: MessagesFeature(context), people: PeopleFeature(likes.composition))
    var unread = await likes.composition.unreadCount()
    if case .online(let session) = entry,
      let confirmed = await likes.composition.accountConfirmed(id: session.profile.id)
    {
      unread = confirmed
    }
    let home =
      switch entry {
      case .online(let session):
        HomeViewModel(session: session, center: likes.center, unread: unread, responder: main)
      case .offline(let account, _):
        HomeViewModel(offline: account, center: likes.center, unread: unread, responder: main)
      }
    self.home = home
    welcomed = false
    home.reachabilityChanged(root.reachability.status)
    saidOffline = home.showsOffline
    home.onStateChange = { [weak self, weak home] state in
      guard let self, let home else { return }
      input.promptChanged(prompt(home))
      input.completionChanged(home.completionContext)
      if let failure = state.realtimeFailure, failure != toldRealtimeFailure {
        toldRealtimeInterrupted = false
        toldRealtimeFailure = failure
        tellMeanwhile(
          "Realtime updates stopped: \(failure.sentences(in: console.words)) New likes show "
            + "when you type `likes`.")
      }
    }
    home.onRealtime = { [weak self] update in self?.showRealtime(update) }
    input.completionChanged(home.completionContext)
    switch entry {
    case .online(let session):
      welcome(session.profile)
      startRealtime(home)
    case .offline(_, let reason):
      console.warning(
        "Offline: \(reason.message) Signed in as \(home.account.username) on "
          + "\(root.backend.displayName), from what this machine keeps: cached likes pages, "
          + "`session` and `prepare` work. The shell goes back online by itself.")
      startReconnecting()
    }
    return home
  }

  private func welcome(_ profile: UserProfile) {
    console.message(
      "Signed in as \(profile.username) (\(profile.name)) on \(root.backend.displayName). "
        + "Type `help` for the commands.")
  }

  /// A script's transcript is the same on every run: no banners arrive in it.
  private func startRealtime(_ home: HomeViewModel) {
    toldRealtimeFailure = nil
    if input.isInteractive { home.startRealtime() }
  }

  /// Asks the server again every few seconds, on the root's clock, until the home is online
  /// (or the session is found rejected): soon after a first failure, which may be a blip,
  /// then every `reconnectInterval`.
  ///
  /// Each question starts its pause beside it, and the next one starts when both are over:
  /// a server that does not answer at all is asked again as soon as the last try gives up.
  /// So while it is offline a question is nearly always asking it, and a command's request
  /// fails at once with what is known rather than wait out the same silence
  /// (`ServerReachability`).
  private func startReconnecting() {
    guard reconnecting == nil else { return }
    reconnectRuns += 1
    let run = reconnectRuns
    reconnecting = Task { [weak self, clock = root.clock] in
      var pause: Task<Void, Never>?
      defer { pause?.cancel() }
      while !Task.isCancelled {
        guard let self else { return }
        guard let home, isOutOfReach(home) else {
          // Online again: a later failure starts a new round.
          if reconnectRuns == run { reconnecting = nil }
          return
        }
        let wait =
          root.reachability.status == .reconnecting ? Self.recheckInterval : Self.reconnectInterval
        if let pause {
          await withTaskCancellationHandler {
            await pause.value
          } onCancel: {
            pause.cancel()
          }
        } else {
          do { try await clock.sleep(for: wait) } catch { return }
        }
        guard !Task.isCancelled else { return }
        pause = Task { try? await clock.sleep(for: wait) }
        await checkServerInBackground(home).value
      }
    }
  }

  /// How often an offline home asks whether the server is back.
  static let reconnectInterval = Duration.seconds(5)
  /// How soon a home asks again after one failure on the network, to tell a blip from an
  /// outage.
  static let recheckInterval = Duration.seconds(1)

  private func isOutOfReach(_ home: HomeViewModel) -> Bool {
    home.showsOffline || root.reachability.status != .online
  }

  /// Asks the server whether it answers, unless a question is under way already; returns
  /// the one under way, for whoever wants to wait for its answer.
  @discardableResult
  func checkServerInBackground(_ home: HomeViewModel) -> Task<Void, Never> {
    if let checking { return checking }
    let check = Task { [weak self] in
      await self?.checkServer(home)
      self?.checking = nil
    }
    checking = check
    return check
  }

  /// Asks the server whether it answers; a session it rejects ends the home. A home that
  /// comes online has its badge checked against the account the server confirmed (a new
  /// account of the same name starts it again), here, where it is awaited: the check is part
  /// of the command or the probe, and nothing of it runs after the shell has ended.
  func checkServer(_ home: HomeViewModel) async {
    let wasOffline = home.state.isOffline
    if await main.checkServer() == false, main.signedInAccount == home.account {
      home.sessionRejected()
    }
    if wasOffline, !home.state.isOffline, let profile = home.profile,
      let unread = await features?.likes.composition.accountConfirmed(id: profile.id)
    {
      home.unreadChanged(unread)
    }
    reachabilityChanged()
  }

  /// The session's reachability may have changed: the prompt follows, and going offline or
  /// coming back is said once.
  func reachabilityChanged() {
    guard let home else { return }
    home.reachabilityChanged(root.reachability.status)
    if isOutOfReach(home), input.isInteractive || home.state.isOffline { startReconnecting() }
    let offline = home.showsOffline
    guard offline != saidOffline else { return }
    saidOffline = offline
    if offline {
      let reason = root.reachability.lastFailure.map { UserFacingError($0).message + " " } ?? ""
      tellMeanwhile(
        "Offline: \(reason)Cached likes pages still show, with their age; the shell goes back "
          + "online by itself.")
    } else {
      tellMeanwhile("Back online: \(root.backend.displayName) answered.")
    }
  }

  /// A line for the person while the prompt may be on screen: above it at a terminal.
  func tellMeanwhile(_ line: String) {
    if input.isInteractive { input.printAbove([line]) } else { console.message(line) }
  }

  func prompt(_ home: HomeViewModel) -> String {
    home.prompt(server: root.backend.promptName)
  }

  /// Ctrl-C: the line being typed is dropped, or the command running is cancelled. A
  /// command that has not ended `interruptGrace` later is left behind, and the prompt comes
  /// back: Ctrl-C is never kept waiting by what a command cannot cut short.
  nonisolated func interrupted() {
    Task { @MainActor in
      guard let running else { return input.interrupt() }
      running.interrupt(grace: Self.interruptGrace, on: root.clock) { [console] in
        console.show(UserFacingError(CancellationError()))
      }
    }
  }

  /// How long a cancelled command has to end before the prompt comes back without it.
  static let interruptGrace = Duration.milliseconds(300)

  // MARK: - What happens meanwhile

  /// The data folder uses another account now (`switch`): the home of the last one closes,
  /// and the session is read again, which opens the new account's.
  func reopenHome() async {
    home?.stopRealtime()
    home?.onStateChange = nil
    home?.onRealtime = nil
    home = nil
    features = nil
    await main.launch()
  }

  private func mainChanged(_ state: MainViewModel.State) {
    if case .signedIn(let session) = state, let home, home.state.isOffline {
      // The badge is checked against the account (`checkServer`, which made this change).
      home.cameOnline(session)
      home.reachabilityChanged(root.reachability.status)
      if !home.showsOffline {
        saidOffline = false
        tellMeanwhile(
          "Back online: \(root.backend.displayName) answered. Signed in as "
            + "\(session.profile.username) (\(session.profile.name)).")
      }
      startRealtime(home)
      return
    }
    guard case .onboarding(let notice) = state, let home else { return }
    reconnecting?.cancel()
    reconnecting = nil
    home.onStateChange = nil
    home.onRealtime = nil
    self.home = nil
    features = nil
    // A line half typed at the home's prompt is for a home that is gone: it goes first, so
    // that the news takes its place and the home's prompt is not drawn again below it.
    input.abandon()
    if case .sessionExpired(let username) = notice {
      let news = "The server ended the session of \(username); please sign in again."
      if input.isInteractive { input.printAbove([news]) } else { console.message(news) }
    }
  }

  private func showRealtime(_ update: LikesWatchViewModel.Update) {
    switch update {
    case .newLike(let item, let unread):
      input.printAbove([LikesScreen.newLikeLine(item, unread: unread)])
    case .match(let text, _):
      input.printAbove([LikesScreen.bannerLine(text)])
    case .message(let user, let message):
      input.printAbove([LikesScreen.newMessageLine(from: user, message)])
    case .unmatched(let user):
      input.printAbove([LikesScreen.unmatchedLine(user)])
    case .interrupted(let failure):
      // Out of reach, the prompt says offline already: that is the news.
      guard let home, !home.showsOffline, !toldRealtimeInterrupted else { return }
      toldRealtimeInterrupted = true
      tellMeanwhile(
        "Realtime updates are failing: \(failure.sentences(in: console.words)) The shell "
          + "keeps trying; new likes show when you type `likes`.")
    case .resumed:
      guard toldRealtimeInterrupted else { return }
      toldRealtimeInterrupted = false
      tellMeanwhile("Realtime updates are back.")
    case .unreadChanged:
      // The prompt shows the badge: the home has it.
      break
    case .notKept(let failure):
      tellMeanwhile(
        "New likes cannot be kept on this machine: \(failure.sentences(in: console.words)) "
          + "They still show here, and `likes` asks the server for its pages meanwhile.")
    }
  }

  // MARK: - Failures

  func failed(_ error: Error) {
    let error = UserFacingError(error)
    console.show(error)
    failed(
      error.code == "usage"
        ? ExitCode.validationFailure.rawValue : ExitCodes.code(for: error).rawValue)
  }

  func failed(_ status: Int32) {
    if firstFailure == 0 { firstFailure = status }
  }
}
