import Backend
import BackendServer
import Foundation
import Synchronization
import SystemSupport

/// `app serve`'s life as systemd's `Type=notify` sees it (docs/server.md): `READY=1` once it
/// listens with its database open (migrations done), `STOPPING=1` when SIGTERM or Ctrl-C
/// starts the graceful stop, and `WATCHDOG=1` every half `WatchdogSec` while requests can
/// still be run. Outside systemd the notifications go nowhere, and SIGTERM still stops it.
final class ServeLifecycle: Sendable {
  private struct State {
    var stopRequested = false
    var stop: (@Sendable () -> Void)?
    var termination: SignalPipe?
  }

  let notifier: SystemdNotifier
  private let state = Mutex(State())

  init(notifier: SystemdNotifier) {
    self.notifier = notifier
  }

  /// From now on SIGTERM starts the graceful stop, even before the server runs (it then
  /// stops as soon as it has started). A `SignalPipe` of its own, not the server's shutdown
  /// signals (dispatch signal sources, which can lose a signal), so that systemd hears
  /// `STOPPING=1` as the stop begins.
  func trapTermination() {
    state.withLock { state in
      guard state.termination == nil else { return }
      state.termination = SignalPipe.watch(SIGTERM) { [self] in stopping() }
    }
  }

  /// The server listens and its backend is open: `stop` stops it gracefully from now on.
  func serving(at url: URL, stop: @escaping @Sendable () -> Void) {
    notifier.notify("READY=1\nSTATUS=Serving on \(url.absoluteString)")
    let alreadyRequested = state.withLock { state in
      state.stop = stop
      return state.stopRequested
    }
    if alreadyRequested { stop() }
  }

  /// The graceful stop begins (SIGTERM, Ctrl-C).
  func stopping() {
    let stop = state.withLock { state in
      let first = !state.stopRequested
      state.stopRequested = true
      return first ? (state.stop ?? {}) : nil
    }
    guard let stop else { return }
    notifier.notify("STOPPING=1\nSTATUS=Stopping: answering the requests in flight")
    stop()
  }

  /// Sends `WATCHDOG=1` every half `WatchdogSec` until cancelled, each after a no-op has
  /// run on every thread requests run on: a server whose request threads are stuck stops
  /// being vouched for, and systemd restarts it. Returns at once without a watchdog.
  func keepWatchdogFed() async {
    guard let interval = notifier.watchdogInterval else { return }
    let clock = ContinuousClock()
    while !Task.isCancelled {
      await BackendHTTPServer.handlerThreadsRespond()
      notifier.notify("WATCHDOG=1")
      try? await clock.sleep(for: interval)
    }
  }
}
