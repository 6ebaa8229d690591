import Foundation
import Presentation
import Synchronization
import Terminal

/// Where the shell's commands come from: libedit at a terminal, or a script's lines.
@MainActor
protocol ShellInput: AnyObject {
  /// Whether a person is at a terminal: realtime banners, history and Ctrl-C at the prompt.
  var isInteractive: Bool { get }
  func read(prompt: String) async -> LineEditor.Reading
  /// A whole line above the prompt, such as a banner.
  func printAbove(_ lines: [String])
  /// A command starts: keys typed while it runs wait, unechoed, for the next prompt.
  func commandStarted()
  /// A command has ended: what waited for it (a banner during its question) is written.
  func commandEnded()
  /// The prompt changed (the badge): redrawn if it is on screen.
  func promptChanged(_ prompt: String)
  func completionChanged(_ context: ShellCompletion.Context)
  /// The line was a command: kept in the history.
  func remember(_ line: String)
  func interrupt()
  func abandon()
  /// Clears the screen, at a terminal; a transcript has none to clear.
  func clearScreen()
}

/// The terminal: everything through `LineEditor` while a line is read. Between reads a
/// command owns the terminal: a banner goes above its spinner (the live line the shell's
/// commands share), or, while it asks a question, waits until the command ends.
final class TerminalShellInput: ShellInput {
  let editor: LineEditor
  private let liveLine: LiveLine
  private var waiting: [String] = []
  var isInteractive: Bool { true }

  init(editor: LineEditor, liveLine: LiveLine) {
    self.editor = editor
    self.liveLine = liveLine
  }

  func read(prompt: String) async -> LineEditor.Reading { await editor.read(prompt: prompt) }

  func printAbove(_ lines: [String]) {
    guard !editor.printAboveIfReading(lines) else { return }
    let written = liveLine.aboveUnlessAsking { Self.write(lines) }
    if !written { waiting += lines }
  }

  /// The terminal as it was before the command: echo goes back on at its end.
  private var beforeCommand: termios?

  func commandStarted() {
    // Echo off, the line discipline kept: type-ahead is neither drawn into a spinner nor
    // lost, and libedit reads it, and draws it, at the next prompt.
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
    beforeCommand = settings
    settings.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
  }

  func commandEnded() {
    // A question the command left behind (it was cancelled while asking) goes with it.
    editor.cancelQuestion()
    if var settings = beforeCommand {
      tcsetattr(STDIN_FILENO, TCSANOW, &settings)
      beforeCommand = nil
    }
    guard !waiting.isEmpty else { return }
    liveLine.clear()
    Self.write(waiting)
    waiting = []
  }

  private static func write(_ lines: [String]) {
    FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
  }

  func promptChanged(_ prompt: String) { editor.setPrompt(prompt) }
  func completionChanged(_ context: ShellCompletion.Context) {
    editor.setCompletion { before, kind in
      let completion = ShellCompletion.complete(
        before, in: kind == .preparation ? .preparation : context)
      return LineEditor.Completion(
        partial: completion.partial, candidates: completion.candidates,
        commonPrefix: completion.commonPrefix)
    }
  }
  func remember(_ line: String) { editor.remember(line) }
  func interrupt() { editor.interrupt() }
  func abandon() { editor.abandon() }
  /// Home, clear the screen, and its scrollback, as ncurses' `clear` does.
  func clearScreen() {
    FileHandle.standardOutput.write(Data("\u{1B}[H\u{1B}[2J\u{1B}[3J".utf8))
  }
}

/// A script on stdin: one command per line, each echoed after the prompt on stdout so that
/// the output reads as a transcript. Every line read, by the shell or by a question a
/// command asks (a password, a preparation step), is counted, so an error names its line.
final class ScriptShellInput: ShellInput {
  /// The script's streams, with its lines counted (`ScriptLines.numbering`).
  private let io: AppIO
  var isInteractive: Bool { false }

  init(io: AppIO) {
    self.io = io
  }

  func read(prompt: String) async -> LineEditor.Reading {
    guard let line = io.readLine() else { return .ended }
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
      io.writeOutput(prompt + line + "\n")
    }
    return .line(line)
  }

  func printAbove(_ lines: [String]) { io.writeOutput(lines.map { $0 + "\n" }.joined()) }
  func commandStarted() {}
  func commandEnded() {}
  func promptChanged(_ prompt: String) {}
  func completionChanged(_ context: ShellCompletion.Context) {}
  func remember(_ line: String) {}
  func interrupt() {}
  func abandon() {}
  func clearScreen() {}
}

/// Counts a script's lines as they are read, and names the line in the errors written
/// while it runs: "line 3: error: …".
final class ScriptLines: Sendable {
  private let number = Atomic(0)

  var current: Int { number.load(ordering: .relaxed) }

  /// `io` with its reads counted and its error lines numbered.
  func numbering(_ io: AppIO) -> AppIO {
    var numbered = io
    let read = io.readLine
    numbered.readLine = { [self] in
      let line = read()
      if line != nil { number.add(1, ordering: .relaxed) }
      return line
    }
    let writeError = io.writeError
    numbered.writeError = { [self] text in
      writeError(Self.startsWithError(text) ? "line \(current): \(text)" : text)
    }
    return numbered
  }

  /// "error: …", painted red or not.
  private static func startsWithError(_ text: String) -> Bool {
    text.hasPrefix("error:") || text.hasPrefix("\u{1B}[31merror:")
  }
}
