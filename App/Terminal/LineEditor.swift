import CLibEdit
import Foundation
import Presentation
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
final class LineEditor: @unchecked Sendable {
  enum Reading: Equatable, Sendable {
    case line(String)
    /// Ctrl-C: the line is dropped.
    case interrupted
    /// The line was given up from outside (the session ended).
    case abandoned
    /// Ctrl-D on an empty line, or the end of input.
    case ended
  }

  /// What a read is for: each has its own history and its own Tab.
  enum Kind: Equatable, Sendable {
    /// The shell's prompt: the kept history, the home's or the onboarding's words.
    case command
    /// A question's answer (a username, a name, `[y/N]`): no history, no Tab.
    case answer
    /// A password: nothing is echoed, nothing is kept.
    case secret
    /// The nested `prepare>` prompt: this session's preparation lines, its words.
    case preparation
  }

  /// What other threads hand to the editor's thread.
  private struct Shared {
    var prompt = "> "
    var above: [String] = []
    var redraw = false
    var resized = false
    var giveUp: Reading?
    var completion = ShellCompletion.Context(signedIn: false)
    var kind = Kind.command
    /// A read is under way: lines for above the prompt wait for the editor's thread.
    var reading = false
  }

  // Only the editor's thread touches these while a read runs.
  private let editLine: OpaquePointer
  private let commandHistory: OpaquePointer
  private let preparationHistory: OpaquePointer
  /// Always empty: a question's Up arrow recalls nothing.
  private let noHistory: OpaquePointer
  private var promptBuffer: UnsafeMutablePointer<CChar>?
  private var ending: Reading?
  /// The width the line on screen was drawn for: a resize clears it at the old width.
  private var columns = 80
  /// The last key libedit read, to tell a Ctrl-D from the end of input.
  private var lastKey: Unicode.Scalar?
  /// When Ctrl-D was pressed: a quick second press at the prompt is dropped.
  private var ctrlDs = CtrlDPresses()
  private let now: @Sendable () -> ContinuousClock.Instant

  private let shared = Mutex(Shared())
  /// Reads run one at a time, each on this queue's thread (never the cooperative pool): a
  /// prompt asked for while a question is still read waits for it to end.
  private let reads = DispatchQueue(label: "app.line-editor")
  private let wakeUp: (read: Int32, write: Int32)
  private let historyFile: ShellHistory?

  /// Opens libedit on the process's terminal; `historyFile` loads and keeps the history.
  /// `now` times the Ctrl-D presses.
  init(
    historyFile: ShellHistory?,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
  ) {
    self.now = now
    TerminalKeys.useUTF8()
    var pipeEnds: [Int32] = [0, 0]
    pipe(&pipeEnds)
    wakeUp = (pipeEnds[0], pipeEnds[1])
    self.historyFile = historyFile
    editLine = app_el_open("app")
    commandHistory = app_history_open(Int32(ShellHistory.limit))
    preparationHistory = app_history_open(Int32(ShellHistory.limit))
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
  func read(prompt: String, kind: Kind = .command) async -> Reading {
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
  func cancelQuestion() {
    let wasAsking = shared.withLock { state in
      let asking = state.reading && state.kind != .command
      if asking { state.giveUp = .abandoned }
      return asking
    }
    if wasAsking { wake() }
  }

  /// Prints `lines` above the prompt if a line is being read; false between reads, when the
  /// caller writes them (the terminal is not libedit's then).
  func printAboveIfReading(_ lines: [String]) -> Bool {
    let queued = shared.withLock { state in
      if state.reading { state.above += lines }
      return state.reading
    }
    if queued { wake() }
    return queued
  }

  /// Changes the command prompt, redrawn at once if it is on screen. A question's prompt
  /// stays as it is: the badge belongs to the shell's prompt.
  func setPrompt(_ prompt: String) {
    shared.withLock { state in
      guard !state.reading || state.kind == .command else { return }
      state.prompt = prompt
      state.redraw = true
    }
    wake()
  }

  /// The terminal changed size (SIGWINCH): the line is drawn again for the new width.
  func resized() {
    shared.withLock { $0.resized = true }
    wake()
  }

  /// Ctrl-C: the line being read is dropped.
  func interrupt() { giveUp(.interrupted) }

  /// The line being read is given up: the session it was typed for has ended.
  func abandon() { giveUp(.abandoned) }

  func setCompletion(_ context: ShellCompletion.Context) {
    shared.withLock { $0.completion = context }
  }

  /// Adds `line` to the history and its file (never a password: those are never read as
  /// commands).
  func remember(_ line: String) {
    app_history_enter(commandHistory, line)
    historyFile?.append(line)
  }

  // MARK: - On the editor's thread

  private func blockingRead(_ kind: Kind) -> Reading {
    let reading = kind == .secret ? readSecret() : readLine(kind)
    // Lines that came as the read ended go below the line just read.
    let late = shared.withLock { state in
      state.reading = false
      state.giveUp = nil
      defer { state.above = [] }
      return state.above
    }
    Self.write(late)
    if reading == .ended && kind != .command {
      // Ctrl-D cancels the question, and only the question: more Ctrl-Ds typed with it are
      // dropped here rather than reaching the shell's prompt, which they would close.
      tcflush(STDIN_FILENO, TCIFLUSH)
    }
    return reading
  }

  private func readLine(_ kind: Kind) -> Reading {
    ending = nil
    el_resize(editLine)
    columns = TerminalKeys.terminalColumns()
    app_el_use_history(editLine, history(for: kind))
    var text: UnsafePointer<CChar>?
    var count: Int32 = 0
    while true {
      lastKey = nil
      app_el_prepare_terminal(editLine)
      text = el_gets(editLine, &count)
      if ending != nil || (text != nil && count > 0) { break }
      // An empty line's Ctrl-D. At the prompt, one that follows another within a second
      // (the question it cancelled, or one pressed with it) is dropped: the prompt is
      // drawn again and read again.
      guard lastKey == "\u{4}" else { break }
      if ctrlDs.counts(at: now()) || kind != .command { break }
      clearPromptRows()
    }
    if let ending {
      // An abandoned line was cleared already (`nextKey`).
      if ending != .abandoned { Self.write(ending == .interrupted ? "^C\n" : "\n") }
      return ending
    }
    guard let text, count > 0 else {
      Self.write("\n")
      return .ended
    }
    var line = String(cString: text)
    while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
    if kind == .preparation, !line.allSatisfy(\.isWhitespace) {
      app_history_enter(preparationHistory, line)
    }
    return .line(line)
  }

  private func history(for kind: Kind) -> OpaquePointer {
    switch kind {
    case .command: commandHistory
    case .preparation: preparationHistory
    case .answer, .secret: noHistory
    }
  }

  /// A password: read key by key in the editor's mode, with nothing echoed. Backspace and
  /// Ctrl-U edit it; Ctrl-C and Ctrl-D on an empty answer cancel; arrows are ignored.
  private func readSecret() -> Reading {
    app_el_prepare_terminal(editLine)
    defer { app_el_restore_terminal(editLine) }
    columns = TerminalKeys.terminalColumns()
    let prompt = shared.withLock { $0.prompt }
    Self.write(prompt)
    var secret: [Unicode.Scalar] = []
    while true {
      switch nextKey(drawAbove: { lines in
        Self.write("\r\u{1B}[J" + lines.map { $0 + "\r\n" }.joined() + prompt)
      }) {
      case .giveUp(let reading):
        if reading != .abandoned { Self.write(reading == .interrupted ? "^C\r\n" : "\r\n") }
        return reading
      case .end:
        Self.write("\r\n")
        return .ended
      case .key(let key):
        switch key {
        case "\r", "\n":
          Self.write("\r\n")
          var text = ""
          text.unicodeScalars.append(contentsOf: secret)
          return .line(text)
        case "\u{3}":
          Self.write("^C\r\n")
          return .interrupted
        case "\u{4}" where secret.isEmpty:
          _ = ctrlDs.counts(at: now())
          Self.write("\r\n")
          return .ended
        case "\u{1A}":
          if suspendProcess() { Self.write(prompt) }
        case "\u{7F}", "\u{8}": _ = secret.popLast()
        case "\u{15}": secret.removeAll()
        case "\u{1B}": TerminalKeys.skipEscapeSequence()
        default:
          if key.properties.generalCategory != .control { secret.append(key) }
        }
      }
    }
  }

  private func promptForLibedit() -> UnsafeMutablePointer<CChar>? {
    promptBuffer.map { free($0) }
    promptBuffer = strdup(shared.withLock { $0.prompt })
    return promptBuffer
  }

  /// libedit's next character: a key from the terminal, or Ctrl-C standing for a line
  /// given up. Lines queued meanwhile are drawn above the prompt first.
  private func nextCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
    switch nextKey(drawAbove: drawAbove) {
    case .key(let scalar):
      lastKey = scalar
      character.pointee = wchar_t(bitPattern: scalar.value)
      return 1
    case .giveUp(let reading):
      ending = reading
      character.pointee = 3  // Ctrl-C, bound to app-give-up
      return 1
    case .end:
      return 0
    }
  }

  private enum Wake {
    case key(Unicode.Scalar)
    case giveUp(Reading)
    case end
  }

  /// Waits for a key, drawing what other threads queued meanwhile (lines above, a new
  /// prompt, a new width) with `drawAbove`.
  private func nextKey(drawAbove: ([String]) -> Void) -> Wake {
    while true {
      let (lines, redraw, resized, giveUp) = shared.withLock { state in
        defer {
          state.above = []
          state.redraw = false
          state.resized = false
          state.giveUp = nil
        }
        return (state.above, state.redraw, state.resized, state.giveUp)
      }
      if resized { followResize() }
      if giveUp == .abandoned {
        // The line belongs to a screen that is gone (the session ended): it is cleared, and
        // what came meanwhile takes its place, with no prompt of that screen drawn again.
        clearPromptRows()
        Self.write(lines.map { $0 + "\r\n" }.joined())
        return .giveUp(.abandoned)
      }
      if !lines.isEmpty || redraw { drawAbove(lines) }
      if let giveUp { return .giveUp(giveUp) }
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0),
      ]
      guard poll(&descriptors, 2, -1) >= 0 else {
        if errno == EINTR { continue }
        return .end
      }
      if descriptors[1].revents != 0 {
        var drained = [UInt8](repeating: 0, count: 64)
        _ = Foundation.read(wakeUp.read, &drained, drained.count)
        continue
      }
      if descriptors[0].revents != 0 {
        guard let scalar = TerminalKeys.readScalar() else { return .end }
        return .key(scalar)
      }
    }
  }

  /// Ctrl-Z: the terminal goes back to the mode it was found in, and the whole job stops,
  /// as in every terminal program; `fg` goes on here, in the editor's mode again, with the
  /// width as it is now. The caller draws the prompt and the line again; what arrived
  /// meanwhile is drawn above them at the next key's wait. Without a job-control shell to
  /// say `fg` (`JobControl.canSuspend`), Ctrl-Z does nothing but draw the line again.
  private func suspendProcess() -> Bool {
    guard JobControl.canSuspend else { return false }
    clearPromptRows()
    app_el_restore_terminal(editLine)
    JobControl.stopUntilContinued()
    app_el_prepare_terminal(editLine)
    el_resize(editLine)
    columns = TerminalKeys.terminalColumns()
    return true
  }

  /// Clears the line as it was drawn for the old width, then has libedit take the new one
  /// and draw the prompt and the line again: Ctrl-A and the wrapping then agree with the
  /// screen.
  private func followResize() {
    clearPromptRows()
    el_resize(editLine)
    columns = TerminalKeys.terminalColumns()
    if shared.withLock({ $0.kind }) == .secret {
      Self.write(shared.withLock { $0.prompt })
    } else {
      app_el_redraw(editLine)
    }
  }

  /// Clears the rows of the prompt and the line, writes `lines` there, and draws the prompt
  /// and the line again below them, the cursor where it was.
  private func drawAbove(_ lines: [String]) {
    clearPromptRows()
    Self.write(lines.map { $0 + "\r\n" }.joined())
    app_el_redraw(editLine)
  }

  /// Moves to the first row of the prompt, as drawn at `columns`, and clears to the end of
  /// the screen: a line of any length is gone whole, so it is drawn once, below.
  private func clearPromptRows() {
    var beforeCursor: Int32 = 0
    var total: Int32 = 0
    if shared.withLock({ $0.kind }) != .secret {
      app_el_line_counts(editLine, &beforeCursor, &total)
    }
    let promptWidth = TerminalText.columns(of: shared.withLock { $0.prompt })
    let row = (promptWidth + Int(beforeCursor)) / max(columns, 1)
    Self.write((row > 0 ? "\u{1B}[\(row)A" : "") + "\r\u{1B}[J")
  }

  /// Tab: one candidate replaces the word; several put their common start on the line, or
  /// are listed above the prompt when that adds nothing. A question's answer has no Tab.
  private func complete() -> UInt8 {
    let (kind, context) = shared.withLock { ($0.kind, $0.completion) }
    guard kind == .command || kind == .preparation else { return UInt8(CC_REFRESH_BEEP) }
    var buffer = [CChar](repeating: 0, count: 4096)
    guard app_el_text_before_cursor(editLine, &buffer, buffer.count) >= 0 else {
      return UInt8(CC_ERROR)
    }
    let before = String(
      decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let completion = ShellCompletion.complete(
      before, in: kind == .preparation ? .preparation : context)
    switch completion.candidates.count {
    case 0:
      return UInt8(CC_REFRESH_BEEP)
    case 1:
      replace(completion.partial, with: completion.candidates[0] + " ")
      return UInt8(CC_REFRESH)
    default:
      let common = completion.commonPrefix
      if common.count > completion.partial.count {
        replace(completion.partial, with: common)
        return UInt8(CC_REFRESH)
      }
      drawAbove([completion.candidates.joined(separator: "  ")])
      return UInt8(CC_NORM)
    }
  }

  private func replace(_ partial: String, with text: String) {
    el_deletestr(editLine, Int32(partial.count))
    el_insertstr(editLine, text)
  }

  private static func write(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    write(lines.map { $0 + "\n" }.joined())
  }

  private static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Only a read under way can be given up: between reads there is no line to drop.
  private func giveUp(_ reading: Reading) {
    let wasReading = shared.withLock { state in
      if state.reading { state.giveUp = reading }
      return state.reading
    }
    if wasReading { wake() }
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = Foundation.write(wakeUp.write, &byte, 1)
  }

  private static func owning(_ editLine: OpaquePointer?) -> LineEditor? {
    guard let editLine, let data = app_el_client_data(editLine) else { return nil }
    return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
  }
}
