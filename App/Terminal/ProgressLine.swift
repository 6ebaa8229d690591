import Foundation
import Synchronization

/// What a long operation is doing, on stderr: an animated spinner line on a terminal, one
/// plain line per step otherwise (so logs and pipes read well).
@MainActor
final class ProgressLine {
  private let console: Console
  private var label: String?
  private var animation: Task<Void, Never>?

  init(console: Console) {
    self.console = console
  }

  func show(_ text: String) {
    guard console.stderrIsTerminal else {
      console.message(text)
      return
    }
    label = text
    guard animation == nil else { return }
    animation = Task { [weak self] in
      let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
      var index = 0
      while !Task.isCancelled, let self, let label = self.label {
        self.console.prompt("\r\u{1B}[2K\(frames[index % frames.count]) \(label)")
        index += 1
        try? await Task.sleep(for: .milliseconds(80))
      }
    }
  }

  func finish() {
    animation?.cancel()
    animation = nil
    if console.stderrIsTerminal && label != nil { console.prompt("\r\u{1B}[2K") }
    label = nil
  }
}

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
