internal import CLibEdit
import Foundation

/// What the editor's thread draws: lines above the prompt, the line again after a resize or
/// a stop, and the terminal's writes.
extension LineEditor {
  /// Ctrl-Z: the terminal goes back to the mode it was found in, and the whole job stops,
  /// as in every terminal program; `fg` goes on here, in the editor's mode again, with the
  /// width as it is now. The caller draws the prompt and the line again; what arrived
  /// meanwhile is drawn above them at the next key's wait. Without a job-control shell to
  /// say `fg` (`JobControl.canSuspend`), Ctrl-Z does nothing but draw the line again.
  func suspendProcess() -> Bool {
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
  func followResize() {
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
  func drawAbove(_ lines: [String]) {
    clearPromptRows()
    Self.write(lines.map { $0 + "\r\n" }.joined())
    app_el_redraw(editLine)
  }

  /// Moves to the first row of the prompt, as drawn at `columns`, and clears to the end of
  /// the screen: a line of any length is gone whole, so it is drawn once, below.
  func clearPromptRows() {
    var beforeCursor: Int32 = 0
    var total: Int32 = 0
    if shared.withLock({ $0.kind }) != .secret {
      app_el_line_counts(editLine, &beforeCursor, &total)
    }
    let promptWidth = TerminalColumns.of(shared.withLock { $0.prompt })
    let row = (promptWidth + Int(beforeCursor)) / max(columns, 1)
    Self.write((row > 0 ? "\u{1B}[\(row)A" : "") + "\r\u{1B}[J")
  }

  static func write(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    write(lines.map { $0 + "\n" }.joined())
  }

  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
