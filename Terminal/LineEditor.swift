internal import CLibEdit
import Foundation
import Synchronization

/// Every line the shell reads on a terminal, over libedit: the prompt's commands with their
/// history and Tab, and the questions commands ask (a username, a password without echo, a
/// `[y/N]`, the nested `prepare>` with its own history and Tab). Lines printed above while a
/// line is half typed (a banner) leave the prompt and the typed text drawn again below them,
/// intact; a resize is followed at once.
///
/// `el_gets` blocks, so each read runs on a thread of its own, never on the cooperative pool.
/// libedit reads every key through `nextCharacter`, which waits on the terminal and on a
/// wake-up pipe at once: other threads queue lines, ask for the prompt to be redrawn or for
/// the line to be given up (Ctrl-C, a session that ended), or report a resize, and write a
/// byte to the pipe; the editor's thread does the drawing, so nothing else writes to the
/// terminal while it reads.
public final class LineEditor: @unchecked Sendable {
  public enum Reading: Equatable, Sendable {
    case line(String)
    /// Ctrl-C: the line is dropped.
    case interrupted
    /// The line was given up from outside (the session ended).
    case abandoned
    /// Ctrl-D on an empty line, or the end of input.
    case ended
  }

  /// What a read is for: each has its own history and its own Tab.
  public enum Kind: Equatable, Sendable {
    /// The program's prompt: the kept history, the owner's words (`setCompletion`).
    case command
    /// A question's answer (a username, a name, `[y/N]`): no history, no Tab.
    case answer
    /// A password: nothing is echoed, nothing is kept.
    case secret
    /// A nested prompt (the shell's `prepare>`): this session's lines, its own words.
    case preparation
  }

  /// What other threads hand to the editor's thread.
  struct Shared {
    var prompt = "> "
    var above: [String] = []
    var redraw = false
    var resized = false
    var giveUp: Reading?
    var complete: Completer = { _, _ in Completion(partial: "", candidates: []) }
    var kind = Kind.command
    /// A read is under way: lines for above the prompt wait for the editor's thread.
    var reading = false
  }

  // Only the editor's thread touches these while a read runs.
  let editLine: OpaquePointer
  let commandHistory: OpaquePointer
  let preparationHistory: OpaquePointer
  /// Always empty: a question's Up arrow recalls nothing.
  let noHistory: OpaquePointer
  var promptBuffer: UnsafeMutablePointer<CChar>?
  var ending: Reading?
  /// The width the line on screen was drawn for: a resize clears it at the old width.
  var columns = 80
  /// The last key libedit read, to tell a Ctrl-D from the end of input.
  var lastKey: Unicode.Scalar?
  /// When Ctrl-D was pressed: a quick second press at the prompt is dropped.
  var ctrlDs = CtrlDPresses()
  let now: @Sendable () -> ContinuousClock.Instant

  let shared = Mutex(Shared())
  /// Reads run one at a time, each on this queue's thread (never the cooperative pool): a
  /// prompt asked for while a question is still read waits for it to end.
  let reads = DispatchQueue(label: "app.line-editor")
  let wakeUp: (read: Int32, write: Int32)
  let historyFile: HistoryFile?

  /// Opens libedit on the process's terminal; `historyFile` loads and keeps the history.
  /// `now` times the Ctrl-D presses.
  public init(
    historyFile: HistoryFile?,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
  ) {
    self.now = now
    TerminalKeys.useUTF8()
    var pipeEnds: [Int32] = [0, 0]
    pipe(&pipeEnds)
    wakeUp = (pipeEnds[0], pipeEnds[1])
    self.historyFile = historyFile
    editLine = app_el_open("app")
    commandHistory = app_history_open(Int32(historyFile?.limit ?? 500))
    preparationHistory = app_history_open(Int32(historyFile?.limit ?? 500))
    noHistory = app_history_open(1)
    app_el_set_editor(editLine, "emacs")
    app_el_keys_not_signals(editLine)
    app_el_use_history(editLine, commandHistory)
    for line in historyFile?.load() ?? [] { app_history_enter(commandHistory, line) }
    app_el_set_client_data(editLine, Unmanaged.passUnretained(self).toOpaque())
    app_el_set_prompt(editLine) { editLine in
      guard let editor = LineEditor.owning(editLine) else { return nil }
      return editor.promptForLibedit()
    }
    app_el_set_read_function(editLine) { editLine, character in
      guard let editor = LineEditor.owning(editLine), let character else { return -1 }
      return editor.nextCharacter(into: character)
    }
    app_el_add_command(
      editLine, "app-complete", "Complete the word",
      { editLine, _ in
        LineEditor.owning(editLine)?.complete() ?? UInt8(CC_ERROR)
      }, "^I")
    app_el_add_command(
      editLine, "app-give-up", "Drop the line",
      { editLine, _ in
        guard let editor = LineEditor.owning(editLine) else { return UInt8(CC_ERROR) }
        if editor.ending == nil { editor.ending = .interrupted }
        return UInt8(CC_NEWLINE)
      }, "^C")
    app_el_add_command(
      editLine, "app-suspend", "Suspend the shell, as Ctrl-Z does",
      { editLine, _ in
        guard let editor = LineEditor.owning(editLine) else { return UInt8(CC_ERROR) }
        return UInt8(editor.suspendProcess() ? CC_REDISPLAY : CC_NORM)
      }, "^Z")
  }

  deinit {
    el_end(editLine)
    history_end(commandHistory)
    history_end(preparationHistory)
    history_end(noHistory)
    promptBuffer.map { free($0) }
    close(wakeUp.read)
    close(wakeUp.write)
  }

  /// Reads one line after `prompt`, once any read under way has ended.
  public func read(prompt: String, kind: Kind = .command) async -> Reading {
    await withCheckedContinuation { continuation in
      reads.async { [self] in
        shared.withLock { state in
          state.prompt = prompt
          state.kind = kind
          state.reading = true
        }
        continuation.resume(returning: blockingRead(kind))
      }
    }
  }

  /// Gives up the question being asked, if one is: the command that asked it has ended or
  /// was cancelled, and its answer would go nowhere.
  public func cancelQuestion() {
    let wasAsking = shared.withLock { state in
      let asking = state.reading && state.kind != .command
      if asking { state.giveUp = .abandoned }
      return asking
    }
    if wasAsking { wake() }
  }

  /// Prints `lines` above the prompt if a line is being read; false between reads, when the
  /// caller writes them (the terminal is not libedit's then).
  public func printAboveIfReading(_ lines: [String]) -> Bool {
    let queued = shared.withLock { state in
      if state.reading { state.above += lines }
      return state.reading
    }
    if queued { wake() }
    return queued
  }

  /// Changes the command prompt, redrawn at once if it is on screen. A question's prompt
  /// stays as it is: the badge belongs to the shell's prompt.
  public func setPrompt(_ prompt: String) {
    shared.withLock { state in
      guard !state.reading || state.kind == .command else { return }
      state.prompt = prompt
      state.redraw = true
    }
    wake()
  }

  /// The terminal changed size (SIGWINCH): the line is drawn again for the new width.
  public func resized() {
    shared.withLock { $0.resized = true }
    wake()
  }

  /// Ctrl-C: the line being read is dropped.
  public func interrupt() { giveUp(.interrupted) }

  /// The line being read is given up: the session it was typed for has ended.
  public func abandon() { giveUp(.abandoned) }

  /// What Tab offers at the prompt and at a nested prompt, from the text before the cursor.
  public func setCompletion(_ complete: @escaping Completer) {
    shared.withLock { $0.complete = complete }
  }

  /// Adds `line` to the history and its file (never a password: those are never read as
  /// commands).
  public func remember(_ line: String) {
    app_history_enter(commandHistory, line)
    historyFile?.append(line)
  }
  static func owning(_ editLine: OpaquePointer?) -> LineEditor? {
    guard let editLine, let data = app_el_client_data(editLine) else { return nil }
    return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
  }
}
