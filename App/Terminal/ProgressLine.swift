import Foundation

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
/// before the command ends. One per command: the signal source is set up once.
@MainActor
final class InterruptHandler {
  private let source: any DispatchSourceSignal
  private var current: Task<Void, Never>?
  private(set) var wasInterrupted = false

  init() {
    signal(SIGINT, SIG_IGN)
    source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
    source.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        self?.wasInterrupted = true
        self?.current?.cancel()
      }
    }
    source.resume()
  }

  /// Runs `operation`; a Ctrl-C meanwhile cancels it. After a Ctrl-C nothing more is started.
  func run(_ operation: @escaping @MainActor () async -> Void) async {
    guard !wasInterrupted else { return }
    let work = Task { await operation() }
    current = work
    await work.value
    current = nil
  }
}
