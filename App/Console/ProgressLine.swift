import Foundation

/// What a long operation is doing, on stderr: an animated spinner on the console's live line
/// on a terminal (put away while a question waits), and nothing otherwise: a script or a
/// log has no use for "Loading likes…" before each result, and a script of fifty lines
/// wrote fifty of them.
@MainActor
final class ProgressLine {
  private let console: Console
  private var label: String?
  private var animation: Task<Void, Never>?

  init(console: Console) {
    self.console = console
  }

  func show(_ text: String) {
    guard console.stderrIsTerminal else { return }
    label = text
    guard animation == nil else { return }
    animation = Task { [weak self] in
      let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
      var index = 0
      while !Task.isCancelled, let self, let label = self.label {
        self.console.liveLine.show("\(frames[index % frames.count]) \(label)")
        index += 1
        try? await Task.sleep(for: .milliseconds(80))
      }
    }
  }

  func finish() {
    animation?.cancel()
    animation = nil
    if console.stderrIsTerminal && label != nil { console.liveLine.clear() }
    label = nil
  }
}
