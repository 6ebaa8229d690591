import Foundation
import Presentation
import Synchronization

/// The process's one SIGINT handler, installed by `AppMain` before any command runs. By
/// default Ctrl-C ends the command as an interrupted one: "Interrupted." on stderr, under
/// `--json` an `interrupted` error document on stdout, exit 130, never a death by signal.
/// A command with work that must be finished or undone first (`InterruptHandler`) takes
/// Ctrl-C over while that work runs.
final class InterruptSignal: Sendable {
  static let shared = InterruptSignal()

  /// The error an interrupted command reports.
  static let error = UserFacingError(code: "interrupted", message: "Interrupted (Ctrl-C).")

  private struct State {
    var source: (any DispatchSourceSignal)?
    /// Answers true when it took the interruption over.
    var responder: (@Sendable () -> Bool)?
  }
  private let state = Mutex(State())

  private init() {}

  /// Starts handling Ctrl-C for the process, reporting to `io`'s streams.
  func install(io: AppIO, json: Bool) {
    state.withLock { state in
      guard state.source == nil else { return }
      signal(SIGINT, SIG_IGN)
      // A queue of its own: the main thread may be blocked reading a line.
      let source = DispatchSource.makeSignalSource(
        signal: SIGINT, queue: DispatchQueue(label: "app.interrupt"))
      source.setEventHandler { [self] in
        let responder = self.state.withLock { $0.responder }
        if responder?() == true { return }
        // A new line first: Ctrl-C may come in the middle of a prompt or a spinner.
        io.writeError("\n")
        Console(json: json, io: io).report(Self.error)
        exit(ExitCodes.interrupted.rawValue)
      }
      source.resume()
      state.source = source
    }
  }

  /// While `responder` is set, Ctrl-C asks it first; nil gives the default back.
  func setResponder(_ responder: (@Sendable () -> Bool)?) {
    state.withLock { $0.responder = responder }
  }
}
