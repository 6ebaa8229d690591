import Foundation
import Presentation

/// Where `app` writes: data to stdout, messages, prompts and progress to stderr, colour
/// only on a terminal and never with `NO_COLOR`.
struct Console: Sendable {
  let json: Bool
  /// The streams and environment of the command this console belongs to.
  let io: AppIO
  var stderrIsTerminal: Bool { io.stderrIsTerminal }
  let useColor: Bool

  init(json: Bool, io: AppIO = .current) {
    self.json = json
    self.io = io
    let noColor = io.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    useColor = io.stderrIsTerminal && !noColor && io.environment["TERM"] != "dumb"
  }

  /// A line of data on stdout.
  func output(_ text: String) {
    io.writeOutput(text + "\n")
  }

  /// A line for the person on stderr.
  func message(_ text: String) {
    io.writeError(text + "\n")
  }

  /// Text on stderr with no newline, such as a prompt.
  func prompt(_ text: String) {
    io.writeError(text)
  }

  func success(_ text: String) {
    message(paint(text, code: "32"))
  }

  func warning(_ text: String) {
    message(paint("warning:", code: "33") + " " + text)
  }

  /// Shows a failure on stderr, for the person to read and maybe try again.
  func show(_ error: UserFacingError) {
    message(paint("error:", code: "31") + " " + error.message)
    if let hint = error.hint { message(paint("hint:", code: "2") + " " + hint) }
  }

  /// Reports the failure that ends the command: on stderr, and as `{"error": …}` on stdout
  /// under `--json`, so that a script always gets one JSON document.
  func report(_ error: UserFacingError) {
    show(error)
    if json {
      JSONOutput.write(
        ["error": ErrorDocument(code: error.code, message: error.message, hint: error.hint)],
        to: self)
    }
  }

  /// Shows `label` while `operation` runs: a spinner on a terminal, one plain line otherwise.
  @MainActor
  func withActivity<T>(_ label: String, _ operation: () async -> T) async -> T {
    let progress = ProgressLine(console: self)
    progress.show("\(label)…")
    let result = await operation()
    progress.finish()
    return result
  }

  private func paint(_ text: String, code: String) -> String {
    useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  private struct ErrorDocument: Encodable {
    let code: String
    let message: String
    let hint: String?
  }
}
