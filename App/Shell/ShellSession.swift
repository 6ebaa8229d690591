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
  var reconnecting: Task<Void, Never>?
  /// Rounds of asking started, so that a round that ends knows whether it is still the one.
  var reconnectRuns = 0
  /// The session's reachability, followed for the prompt and its news.
  var reachabilityWatch: Task<Void, Never>?
  /// Whether the person was last told the home is offline: offline and `Back online` are each
  /// said once, when the prompt changes.
  var saidOffline = false
  /// Why realtime stopped, once said: it is said once.
  var toldRealtimeFailure: UserFacingError?
  /// Whether the person was told realtime keeps failing, so that its return is said too.
  var toldRealtimeInterrupted = false
  /// The command running, for Ctrl-C to cancel.
  var running: RunningCommand?
  /// The question to the server under way: one at a time, whoever asks.
  var checking: Task<Void, Never>?
  /// A script's exit code: the first failing line's.
  var firstFailure: Int32 = 0
  /// The onboarding's welcome is said once each time it is entered.
  var welcomed = false

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
