internal import CLibEdit
import Foundation

/// A read, on the editor's thread: a line through libedit, or a secret key by key.
extension LineEditor {
  func blockingRead(_ kind: Kind) -> Reading {
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

  func readLine(_ kind: Kind) -> Reading {
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

  func history(for kind: Kind) -> OpaquePointer {
    switch kind {
    case .command: commandHistory
    case .preparation: preparationHistory
    case .answer, .secret: noHistory
    }
  }

  /// A password: read key by key in the editor's mode, with nothing echoed. Backspace and
  /// Ctrl-U edit it; Ctrl-C and Ctrl-D on an empty answer cancel; arrows are ignored.
  func readSecret() -> Reading {
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
}
