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
