import Foundation
import Synchronization

/// Makes Ctrl-C cancel the work under way instead of killing the process, so that work that
/// must not be left half-done (a registration with two backends) is finished and reconciled
/// before the command ends. Between two pieces of work (at a prompt, say) Ctrl-C ends the
/// command at once, as people expect. One per command.
///
/// It takes Ctrl-C over from `InterruptSignal`, the process's handler, for as long as it
/// lives. In a test process (`AppIO.handlesSignals` false) it leaves signals alone:
/// cancelling the command's task cancels the work just the same.
@MainActor
final class InterruptHandler {
  /// What the signal handler and the main actor share.
  private final class Shared: Sendable {
    struct State {
      var current: Task<Void, Never>?
      var interrupted = false
    }
    let state = Mutex(State())
  }

  private let shared = Shared()
  /// Its place among `InterruptSignal`'s responders; nil in a test process.
  private let responder: Int?

  init(io: AppIO) {
    guard io.handlesSignals else {
      responder = nil
      return
    }
    let shared = shared
    responder = InterruptSignal.shared.addResponder { @Sendable in
      let running = shared.state.withLock { state in
        state.interrupted = true
        return state.current
      }
      // Between two pieces of work the default ends the command at once.
      guard let running else { return false }
      running.cancel()
      return true
    }
  }

  isolated deinit {
    if let responder { InterruptSignal.shared.removeResponder(responder) }
  }

  var wasInterrupted: Bool { shared.state.withLock { $0.interrupted } }

  /// Runs `operation`; a Ctrl-C, or cancelling the caller, cancels it meanwhile. After a
  /// Ctrl-C nothing more is started.
  func run(_ operation: @escaping @MainActor () async -> Void) async {
    let work = Task { await operation() }
    let alreadyInterrupted = shared.state.withLock { state in
      state.current = work
      return state.interrupted
    }
    if alreadyInterrupted { work.cancel() }
    await withTaskCancellationHandler {
      await work.value
    } onCancel: {
      work.cancel()
    }
    shared.state.withLock { $0.current = nil }
  }
}
