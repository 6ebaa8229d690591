import Foundation

/// Reads what the person types: one line at a time from a terminal or a pipe alike, and
/// secrets without echo when stdin is a terminal.
struct LineInput {
  let console: Console

  /// The next line without its newline, or nil at the end of input. A spinner or banner on
  /// the live line is put away while the question waits.
  func ask(_ prompt: String) -> String? {
    console.liveLine.suspend()
    defer { console.liveLine.resume() }
    console.prompt(prompt)
    return console.io.readLine()
  }

  /// Like `ask`, but the typed characters are not shown on a terminal.
  func askSecret(_ prompt: String) -> String? {
    console.liveLine.suspend()
    defer { console.liveLine.resume() }
    guard console.io.stdinIsTerminal else {
      console.prompt(prompt)
      return console.io.readLine()
    }
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
