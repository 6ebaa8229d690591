/// Ctrl-D's rule at the shell's prompt. Ctrl-D cancels a question, and on an empty prompt
/// quits; people press it two or three times in a row to be sure a question went, and those
/// presses must not reach the prompt and quit. So a Ctrl-D that comes less than `window`
/// after the one before it (wherever that one was) is dropped at the prompt; one after a
/// pause quits as before. Every press, counted or dropped, starts a new window, so a quick
/// run of any length is one press.
struct CtrlDPresses {
  static let window = Duration.seconds(1)

  private var last: ContinuousClock.Instant?

  /// Notes a press at `now`; false when it came within the window of the one before.
  mutating func counts(at now: ContinuousClock.Instant) -> Bool {
    defer { last = now }
    guard let last else { return true }
    return now - last >= Self.window
  }
}
