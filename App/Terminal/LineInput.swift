import Foundation

/// Reads what the person types: one line at a time from a terminal or a pipe alike, and
/// secrets without echo when stdin is a terminal.
struct LineInput {
  let console: Console

  /// The next line without its newline, or nil at the end of input.
  func ask(_ prompt: String) -> String? {
    console.prompt(prompt)
    return readLine(strippingNewline: true)
  }

  /// Like `ask`, but the typed characters are not shown on a terminal.
  func askSecret(_ prompt: String) -> String? {
    console.prompt(prompt)
    guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
    var original = termios()
    tcgetattr(STDIN_FILENO, &original)
    var silent = original
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    defer {
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
      console.prompt("\n")
    }
    return readLine(strippingNewline: true)
  }

  /// All of stdin, less one trailing newline: the `--password-stdin` convention.
  static func readAllStandardInput() -> String {
    let data = FileHandle.standardInput.readDataToEndOfFile()
    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\r\n") {
      text.removeLast(2)
    } else if text.hasSuffix("\n") {
      text.removeLast()
    }
    return text
  }
}
