internal import CLibEdit
import Foundation

/// The keys libedit reads, and what other threads hand over meanwhile: each wait watches
/// the terminal and the wake-up pipe at once.
extension LineEditor {
  func promptForLibedit() -> UnsafeMutablePointer<CChar>? {
    promptBuffer.map { free($0) }
    promptBuffer = strdup(shared.withLock { $0.prompt })
    return promptBuffer
  }

  /// libedit's next character: a key from the terminal, or Ctrl-C standing for a line
  /// given up. Lines queued meanwhile are drawn above the prompt first.
  func nextCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
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

  enum Wake {
    case key(Unicode.Scalar)
    case giveUp(Reading)
    case end
  }

  /// Waits for a key, drawing what other threads queued meanwhile (lines above, a new
  /// prompt, a new width) with `drawAbove`.
  func nextKey(drawAbove: ([String]) -> Void) -> Wake {
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

  /// Only a read under way can be given up: between reads there is no line to drop.
  func giveUp(_ reading: Reading) {
    let wasReading = shared.withLock { state in
      if state.reading { state.giveUp = reading }
      return state.reading
    }
    if wasReading { wake() }
  }

  func wake() {
    var byte: UInt8 = 1
    _ = Foundation.write(wakeUp.write, &byte, 1)
  }
}
