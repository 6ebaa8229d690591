import Synchronization

/// Where `app prepare` writes its transcript. Lines can come from the session while the
/// person is typing: on a terminal the prompt is cleared first and shown again after, so
/// that the transcript stays readable.
final class PreparationOutput: Sendable {
  let prompt: String?
  private let io: AppIO
  private let atPrompt = Mutex(false)

  /// `prompt` is shown only when there is a person at a terminal to read it.
  init(prompt: String?, io: AppIO) {
    self.prompt = prompt
    self.io = io
  }

  func write(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    // In the shell, the line editor draws them above the line being typed.
    if let questions = io.questions, questions.printAboveIfAsking(lines) { return }
    atPrompt.withLock { atPrompt in
      if atPrompt { io.writeError("\r\u{1B}[2K") }
      io.writeOutput(lines.map { $0 + "\n" }.joined())
      if atPrompt, let prompt { io.writeError(prompt) }
    }
  }

  /// Shows the prompt and reads the next line; nil at the end of input. In the shell it is
  /// the line editor's `prepare>`, with its own history and Tab: Ctrl-C drops the line,
  /// Ctrl-D leaves the preparation.
  func readLine() async -> String? {
    if let questions = io.questions {
      switch await questions.ask(prompt ?? "prepare> ", kind: .preparation) {
      case .answered(let line): return line
      case .cancelled, .declined: return ""
      case .ended: return nil
      }
    }
    if let prompt {
      atPrompt.withLock { atPrompt in
        io.writeError(prompt)
        atPrompt = true
      }
    }
    let line = io.readLine()
    atPrompt.withLock { $0 = false }
    // Ctrl-D leaves the cursor after the prompt; what follows starts on a line of its own.
    if line == nil, prompt != nil { io.writeError("\n") }
    return line
  }
}
