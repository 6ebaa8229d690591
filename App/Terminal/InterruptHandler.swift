import Foundation
import Synchronization

/// Makes Ctrl-C cancel the work under way instead of killing the process, so that work that
/// must not be left half-done (a registration with two backends) is finished and reconciled
/// before the command ends. Between two pieces of work (at a prompt, say) Ctrl-C ends the
/// command at once, as people expect. The one place that handles SIGINT; one per command.
///
/// In a test process (`AppIO.handlesSignals` false) it leaves signals alone: cancelling the
/// command's task cancels the work just the same.
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
  // The source runs on a queue of its own: the main thread may be blocked reading a line.
  private let source: (any DispatchSourceSignal)?

  init(io: AppIO = .current) {
    guard io.handlesSignals else {
      source = nil
      return
    }
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(
      signal: SIGINT, queue: DispatchQueue(label: "app.interrupt"))
    let shared = shared
    source.setEventHandler { @Sendable in
      let running = shared.state.withLock { state in
        state.interrupted = true
        return state.current
      }
      guard let running else {
        io.writeError("\n")
        exit(130)
      }
      running.cancel()
    }
    source.resume()
    self.source = source
  }

  isolated deinit {
    source?.cancel()
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
