import Foundation
import Synchronization
import Terminal

/// Reads what the person types: one line at a time from a terminal or a pipe alike, and
/// secrets without echo when stdin is a terminal. In the shell every question goes through
/// its line editor instead (`AppIO.questions`): Ctrl-C and Ctrl-D cancel the question there,
/// and the command that asked ends (`QuestionCancelled`), back at the shell's prompt.
struct LineInput {
  let console: Console

  /// The next line without its newline, or nil at the end of input. A spinner or banner on
  /// the live line is put away while the question waits.
  func ask(_ prompt: String) async throws(QuestionCancelled) -> String? {
    try await ask(prompt, kind: .answer)
  }

  /// Like `ask`, but the typed characters are not shown on a terminal.
  func askSecret(_ prompt: String) async throws(QuestionCancelled) -> String? {
    try await ask(prompt, kind: .secret)
  }

  private func ask(_ prompt: String, kind: LineEditor.Kind) async throws(QuestionCancelled)
    -> String?
  {
    console.liveLine.suspend()
    defer { console.liveLine.resume() }
    guard let questions = console.io.questions else {
      return kind == .secret ? readSecretLine(prompt) : readLine(prompt)
    }
    switch await questions.ask(prompt, kind: kind) {
    case .answered(let text): return text
    case .cancelled, .declined: throw QuestionCancelled()
    case .ended: return nil
    }
  }

  /// A `[y/N]` question: true for an answer starting with y. Ctrl-D, an empty answer and
  /// the end of input are a no, as the capital N promises; only Ctrl-C (at the shell)
  /// cancels the command that asked.
  func confirm(_ prompt: String) async throws(QuestionCancelled) -> Bool {
    console.liveLine.suspend()
    defer { console.liveLine.resume() }
    guard let questions = console.io.questions else {
      return readLine(prompt)?.lowercased().hasPrefix("y") == true
    }
    switch await questions.ask(prompt, kind: .answer) {
    case .answered(let text): return text.lowercased().hasPrefix("y")
    case .declined, .ended: return false
    case .cancelled: throw QuestionCancelled()
    }
  }

  /// `confirm` for a caller that may block: a thread of its own, never the cooperative pool
  /// (the push permission, asked inside the notification service's own blocking call).
  /// Nil when the question was cancelled (Ctrl-C).
  func confirmBlocking(_ prompt: String) -> Bool? {
    guard console.io.questions != nil else {
      console.liveLine.suspend()
      defer { console.liveLine.resume() }
      return readLine(prompt)?.lowercased().hasPrefix("y") == true
    }
    let answer = Mutex<Bool?>(nil)
    let answered = DispatchSemaphore(value: 0)
    Task { [console] in
      let yes = try? await LineInput(console: console).confirm(prompt)
      answer.withLock { $0 = yes }
      answered.signal()
    }
    answered.wait()
    return answer.withLock { $0 }
  }

  /// `askSecret` for a command of the command line, which has no shell to ask through.
  func askSecretOnce(_ prompt: String) -> String? {
    console.liveLine.suspend()
    defer { console.liveLine.resume() }
    return readSecretLine(prompt)
  }

  private func readLine(_ prompt: String) -> String? {
    console.prompt(prompt)
    return console.io.readLine()
  }

  private func readSecretLine(_ prompt: String) -> String? {
    guard console.io.stdinIsTerminal else { return readLine(prompt) }
    // Echo goes off before the prompt shows: keys typed as soon as it does are not shown,
    // and are not flushed away by the change either.
    var original = termios()
    tcgetattr(STDIN_FILENO, &original)
    var silent = original
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    console.prompt(prompt)
    defer {
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
      console.prompt("\n")
    }
    return console.io.readLine()
  }

  /// All of stdin, less one trailing newline: the `--password-stdin` convention.
  func readAllStandardInput() -> String {
    let data = console.io.readToEnd()
    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\r\n") {
      text.removeLast(2)
    } else if text.hasSuffix("\n") {
      text.removeLast()
    }
    return text
  }
}

/// The person cancelled a question at the shell (Ctrl-C, or Ctrl-D): the command that
/// asked ends, and nothing it would have done is done.
struct QuestionCancelled: Error {}

/// How the shell's line editor answers a question.
enum QuestionAnswer: Equatable, Sendable {
  case answered(String)
  /// Ctrl-C: the question, and the command that asked it, are cancelled.
  case cancelled
  /// Ctrl-D at a question: it is left unanswered (a `[y/N]` takes it as a no).
  case declined
  /// The input ended (only the nested `prepare>` prompt ends this way: Ctrl-D leaves it).
  case ended
}

/// Asks questions on the shell's terminal, through its line editor.
protocol QuestionAsker: Sendable {
  func ask(_ prompt: String, kind: LineEditor.Kind) async -> QuestionAnswer
  /// Writes `lines` above the question being asked; false when none is, for the caller to
  /// write them itself.
  func printAboveIfAsking(_ lines: [String]) -> Bool
}

/// The shell's: every question is a read of its one line editor, so banners go above it,
/// a resize redraws it, and Ctrl-D cancels it and nothing more. Ctrl-C cancels it and is
/// then Ctrl-C for the command that asked (`interruptCommand`), which ends, or undoes what
/// it had begun, as at any other moment.
struct EditorQuestions: QuestionAsker {
  let editor: LineEditor
  let interruptCommand: @Sendable () -> Void

  func ask(_ prompt: String, kind: LineEditor.Kind) async -> QuestionAnswer {
    // A command cancelled, or left behind after Ctrl-C (`RunningCommand`), asks nothing
    // more: its question would wait for the next prompt to end, and then come from nowhere.
    guard !Task.isCancelled, !CommandOutput.isSilenced else { return .cancelled }
    let reading = await withTaskCancellationHandler {
      await editor.read(prompt: prompt, kind: kind)
    } onCancel: {
      editor.cancelQuestion()
    }
    switch reading {
    case .line(let text): return .answered(text)
    case .interrupted:
      if kind != .preparation { interruptCommand() }
      return .cancelled
    case .abandoned: return .cancelled
    case .ended: return kind == .preparation ? .ended : .declined
    }
  }

  func printAboveIfAsking(_ lines: [String]) -> Bool {
    editor.printAboveIfReading(lines)
  }
}
