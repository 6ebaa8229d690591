import ArgumentParser
import Domain
import Foundation
import Presentation
import Synchronization

/// What happens while the prompt waits: realtime banners, the server found again or lost,
/// the account switched from another folder, the main state changing.
extension ShellSession {
  /// A script's transcript is the same on every run: no banners arrive in it.
  func startRealtime(_ home: HomeViewModel) {
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
  func startReconnecting() {
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

  func isOutOfReach(_ home: HomeViewModel) -> Bool {
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

  func mainChanged(_ state: MainViewModel.State) {
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

  func showRealtime(_ update: LikesWatchViewModel.Update) {
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
}
