import CLibEdit
import Foundation
import Presentation
import Synchronization

/// The shell's prompt on a terminal, over libedit: editing, history and Tab completion, and
/// lines printed above the prompt while a line is half typed (a banner), with the prompt and
/// the typed text drawn again below them intact.
///
/// `el_gets` blocks, so each read runs on a thread of its own, never on the cooperative pool.
/// libedit reads every key through `nextCharacter`, which waits on the terminal and on a
/// wake-up pipe at once: other threads queue lines, ask for the prompt to be redrawn or for
/// the line to be given up (Ctrl-C, a session that ended) and write a byte to the pipe; the
/// editor's thread does the drawing, so nothing else writes to the terminal while it reads.
final class LineEditor: @unchecked Sendable {
  enum Reading: Equatable, Sendable {
    case line(String)
    /// Ctrl-C at the prompt: the line is dropped.
    case interrupted
    /// The line was given up from outside (the session ended).
    case abandoned
    /// Ctrl-D on an empty line, or the end of input.
    case ended
  }

  /// What other threads hand to the editor's thread.
  private struct Shared {
    var prompt = "> "
    var above: [String] = []
    var redraw = false
    var giveUp: Reading?
    var completion = ShellCompletion.Context(signedIn: false)
    /// A read is under way: lines for above the prompt wait for the editor's thread.
    var reading = false
  }

  // Only the editor's thread touches these three while a read runs.
  private let editLine: OpaquePointer
  private let history: OpaquePointer
  private var promptBuffer: UnsafeMutablePointer<CChar>?
  private var ending: Reading?

  private let shared = Mutex(Shared())
  private let wakeUp: (read: Int32, write: Int32)
  private let historyFile: ShellHistory?

  /// Opens libedit on the process's terminal; `historyFile` loads and keeps the history.
  init(historyFile: ShellHistory?) {
    Self.useUTF8()
    var pipeEnds: [Int32] = [0, 0]
    pipe(&pipeEnds)
    wakeUp = (pipeEnds[0], pipeEnds[1])
    self.historyFile = historyFile
    editLine = app_el_open("app")
    history = app_history_open(Int32(ShellHistory.limit))
    app_el_set_editor(editLine, "emacs")
    app_el_use_history(editLine, history)
    for line in historyFile?.load() ?? [] { app_history_enter(history, line) }
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
  }

  deinit {
    el_end(editLine)
    history_end(history)
    promptBuffer.map { free($0) }
    close(wakeUp.read)
    close(wakeUp.write)
  }

  /// Reads one line after `prompt`, on a thread of its own.
  func read(prompt: String) async -> Reading {
    shared.withLock { state in
      state.prompt = prompt
      state.reading = true
    }
    return await withCheckedContinuation { continuation in
      let thread = Thread { [self] in continuation.resume(returning: blockingRead()) }
      thread.name = "app.line-editor"
      thread.start()
    }
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

  /// Changes the prompt, redrawn at once if a line is being read.
  func setPrompt(_ prompt: String) {
    shared.withLock { state in
      state.prompt = prompt
      state.redraw = true
    }
    wake()
  }

  /// Ctrl-C: the line being read is dropped.
  func interrupt() { giveUp(.interrupted) }

  /// The line being read is given up: the session it was typed for has ended.
  func abandon() { giveUp(.abandoned) }

  func setCompletion(_ context: ShellCompletion.Context) {
    shared.withLock { $0.completion = context }
  }

  /// Adds `line` to the history and its file (never a password: those are asked elsewhere).
  func remember(_ line: String) {
    app_history_enter(history, line)
    historyFile?.append(line)
  }

  // MARK: - On the editor's thread

  private func blockingRead() -> Reading {
    let reading = readLine()
    // Lines that came as the read ended go below the line just read.
    let late = shared.withLock { state in
      state.reading = false
      state.giveUp = nil
      defer { state.above = [] }
      return state.above
    }
    Self.write(late)
    return reading
  }

  private func readLine() -> Reading {
    ending = nil
    el_resize(editLine)
    app_el_prepare_terminal(editLine)
    var count: Int32 = 0
    let text = el_gets(editLine, &count)
    if let ending {
      FileHandle.standardOutput.write(Data((ending == .interrupted ? "^C\n" : "\n").utf8))
      return ending
    }
    guard let text, count > 0 else {
      FileHandle.standardOutput.write(Data("\n".utf8))
      return .ended
    }
    var line = String(cString: text)
    while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
    return .line(line)
  }

  private func promptForLibedit() -> UnsafeMutablePointer<CChar>? {
    promptBuffer.map { free($0) }
    promptBuffer = strdup(shared.withLock { $0.prompt })
    return promptBuffer
  }

  /// libedit's next character: a key from the terminal, or Ctrl-C standing for a line
  /// given up. Lines queued meanwhile are drawn above the prompt first.
  private func nextCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
    while true {
      let (lines, redraw, giveUp) = shared.withLock { state in
        defer {
          state.above = []
          state.redraw = false
          state.giveUp = nil
        }
        return (state.above, state.redraw, state.giveUp)
      }
      if !lines.isEmpty || redraw { drawAbove(lines) }
      if let giveUp {
        ending = giveUp
        character.pointee = 3  // Ctrl-C, bound to app-give-up
        return 1
      }
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0),
      ]
      guard poll(&descriptors, 2, -1) >= 0 else {
        if errno == EINTR { continue }
        return -1
      }
      if descriptors[1].revents != 0 {
        var drained = [UInt8](repeating: 0, count: 64)
        _ = Foundation.read(wakeUp.read, &drained, drained.count)
        continue
      }
      if descriptors[0].revents != 0 {
        guard let scalar = Self.readScalar() else { return 0 }
        character.pointee = wchar_t(bitPattern: scalar.value)
        return 1
      }
    }
  }

  /// Clears the rows of the prompt and the line, writes `lines` there, and draws the prompt
  /// and the line again below them, the cursor where it was.
  private func drawAbove(_ lines: [String]) {
    var beforeCursor: Int32 = 0
    var total: Int32 = 0
    app_el_line_counts(editLine, &beforeCursor, &total)
    let promptWidth = shared.withLock { $0.prompt.count }
    let row = (promptWidth + Int(beforeCursor)) / Self.terminalColumns()
    var text = row > 0 ? "\u{1B}[\(row)A" : ""
    text += "\r\u{1B}[J"
    for line in lines { text += line + "\r\n" }
    FileHandle.standardOutput.write(Data(text.utf8))
    app_el_redraw(editLine)
  }

  /// Tab: one candidate replaces the word; several put their common start on the line, or
  /// are listed above the prompt when that adds nothing.
  private func complete() -> UInt8 {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard app_el_text_before_cursor(editLine, &buffer, buffer.count) >= 0 else {
      return UInt8(CC_ERROR)
    }
    let before = String(
      decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let completion = ShellCompletion.complete(before, in: shared.withLock { $0.completion })
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
    FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
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

  /// One UTF-8 character from stdin; nil at the end of input. A malformed one reads as
  /// U+FFFD rather than ending the line.
  private static func readScalar() -> Unicode.Scalar? {
    guard let byte = readByte() else { return nil }
    let length =
      switch byte {
      case 0..<0x80: 0
      case 0xC0..<0xE0: 1
      case 0xE0..<0xF0: 2
      case 0xF0..<0xF8: 3
      default: -1
      }
    guard length >= 0 else { return "\u{FFFD}" }
    var bytes = [byte]
    for _ in 0..<length {
      guard let next = readByte() else { return "\u{FFFD}" }
      bytes.append(next)
    }
    return String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
  }

  /// One byte of stdin; nil at its end or on an error. A signal arriving meanwhile (a
  /// resize, a child ending) is not the end of input.
  private static func readByte() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = Foundation.read(STDIN_FILENO, &byte, 1)
      if count == 1 { return byte }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  private static func terminalColumns() -> Int {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  /// libedit decodes and draws characters by the C locale: UTF-8 whatever the environment
  /// says, so that names in any script edit as one character each.
  private static func useUTF8() {
    setlocale(LC_CTYPE, "")
    if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
  }
}
