import Synchronization

/// The one line at the bottom of a terminal that redraws itself in place: a spinner, a
/// banner. Whatever else reaches the screen while it stands goes on lines of its own: an
/// output line clears it first and draws it again after (`above`), and a question puts it
/// away until answered (`suspend`, `resume`), so that a prompt and a spinner never share a
/// line and the person never answers blind.
public final class LiveLine: Sendable {
  private struct State {
    var text: String?
    var shown = false
    var suspensions = 0
  }

  private let state = Mutex(State())
  /// Writes to the terminal the line is on (stderr).
  private let write: @Sendable (String) -> Void

  private static let clearLine = "\r\u{1B}[2K"

  public init(write: @escaping @Sendable (String) -> Void) {
    self.write = write
  }

  /// Shows `text` in place of what the line showed; kept back while a question waits.
  public func show(_ text: String) {
    state.withLock { state in
      state.text = text
      guard state.suspensions == 0 else { return }
      write(Self.clearLine + text)
      state.shown = true
    }
  }

  /// Takes the line away for good.
  public func clear() {
    state.withLock { state in
      if state.shown { write(Self.clearLine) }
      state.text = nil
      state.shown = false
    }
  }

  /// Runs `body`, which writes whole lines, with the live line out of its way.
  public func above(_ body: () -> Void) {
    state.withLock { state in
      if state.shown { write(Self.clearLine) }
      body()
      if state.shown, let text = state.text { write(Self.clearLine + text) }
    }
  }

  /// Like `above`, unless a question waits for its answer: then nothing is written and the
  /// answer is false, for the caller to write it once the question is answered.
  public func aboveUnlessAsking(_ body: () -> Void) -> Bool {
    state.withLock { state in
      guard state.suspensions == 0 else { return false }
      if state.shown { write(Self.clearLine) }
      body()
      if state.shown, let text = state.text { write(Self.clearLine + text) }
      return true
    }
  }

  /// Puts the line away while a question waits for its answer. Not under the lock while
  /// the answer is read: the spinner's next frame must never wait for a person.
  public func suspend() {
    state.withLock { state in
      state.suspensions += 1
      if state.shown { write(Self.clearLine) }
      state.shown = false
    }
  }

  /// Brings the line back on the line after the answer.
  public func resume() {
    state.withLock { state in
      state.suspensions = max(0, state.suspensions - 1)
      guard state.suspensions == 0, let text = state.text else { return }
      write(Self.clearLine + text)
      state.shown = true
    }
  }
}
