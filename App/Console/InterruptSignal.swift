import Foundation
import Presentation
import Synchronization
import SystemSupport

/// The process's one SIGINT handler, installed by `AppMain` before any command runs. By
/// default Ctrl-C ends the command as an interrupted one: "Interrupted." on stderr, under
/// `--json` an `interrupted` error document on stdout, exit 130, never a death by signal.
/// A command with work that must be finished or undone first (`InterruptHandler`) takes
/// Ctrl-C over while that work runs, and the shell takes it over for its whole session
/// (the line being typed is dropped, the command running is cancelled). Responders stack:
/// the newest is asked first, and one that declines passes Ctrl-C to the one below.
package final class InterruptSignal: Sendable {
  package static let shared = InterruptSignal()

  /// The error an interrupted command reports.
  static let error = UserFacingError(code: "interrupted", message: "Interrupted (Ctrl-C).")

  private struct State {
    var installed = false
    /// Each answers true when it took the interruption over; the last is asked first.
    var responders: [(id: Int, respond: @Sendable () -> Bool)] = []
    var nextID = 0
  }
  private let state = Mutex(State())

  private init() {}

  /// Starts handling Ctrl-C for the process, reporting to `io`'s streams. Through a
  /// `SignalPipe`, not a dispatch signal source (which lost about 1 Ctrl-C in 400 at a prompt
  /// on a busy machine), and on the signal's own thread: the command's may be blocked
  /// reading a line.
  func install(io: AppIO, json: Bool) {
    state.withLock { state in
      guard !state.installed else { return }
      state.installed =
        SignalPipe.watch(SIGINT) { [self] in interrupted(io: io, json: json) } != nil
    }
  }

  /// Ctrl-C that reached the shell's line editor as a key, at a question a command asked:
  /// the command is interrupted as a SIGINT would, before the editor hands back its answer,
  /// so that the command sees the interruption before it goes on.
  func deliver() {
    interrupted(io: .standard, json: false)
  }

  private func interrupted(io: AppIO, json: Bool) {
    let responders = state.withLock { $0.responders }
    for responder in responders.reversed() where responder.respond() { return }
    // A new line first: Ctrl-C may come in the middle of a prompt or a spinner.
    io.writeError("\n")
    Console(json: json, io: io).report(Self.error)
    exit(ExitCodes.interrupted.rawValue)
  }

  /// Until `removeResponder` with the number returned, Ctrl-C asks `responder` first.
  package func addResponder(_ responder: @escaping @Sendable () -> Bool) -> Int {
    state.withLock { state in
      state.nextID += 1
      state.responders.append((state.nextID, responder))
      return state.nextID
    }
  }

  func removeResponder(_ id: Int) {
    state.withLock { $0.responders.removeAll { $0.id == id } }
  }
}
