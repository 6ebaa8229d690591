import ArgumentParser
import Domain
import Foundation
import Presentation
import Synchronization

/// Signed in: the home, entered online or offline, and its turns at the prompt.
extension ShellSession {
  /// The home as `MainViewModel` has it: confirmed by the server, or kept here only.
  enum Entry {
    case online(UserSession)
    case offline(RemoteUserSession, reason: UserFacingError)

    var account: RemoteUserSession {
      switch self {
      case .online(let session): session.remoteSession
      case .offline(let account, _): account
      }
    }
  }

  func homeTurn(_ entry: Entry) async -> Bool {
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
  func refused(_ line: String, _ error: UserFacingError) {
    if HomeCommand.keepsInHistory(refused: line) {
      input.remember(line.trimmingCharacters(in: .whitespaces))
    }
    failed(error)
  }

  /// The home for the account signed in, made when it opens: online, or offline on what
  /// this machine has until the server answers.
  func enterHome(_ entry: Entry) async -> HomeViewModel? {
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

  func welcome(_ profile: UserProfile) {
    console.message(
      "Signed in as \(profile.username) (\(profile.name)) on \(root.backend.displayName). "
        + "Type `help` for the commands.")
  }

  func prompt(_ home: HomeViewModel) -> String {
    home.prompt(server: root.backend.promptName)
  }
}
