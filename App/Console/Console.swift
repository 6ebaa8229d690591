import Foundation
import Presentation
import Terminal

/// Where `app` writes: data to stdout, messages, prompts and progress to stderr, colour
/// only on a terminal and never with `NO_COLOR`.
package struct Console: Sendable {
  let json: Bool
  /// A stream of JSON Lines (`likes watch`): its error document is one line too.
  let jsonLines: Bool
  /// The streams and environment of the command this console belongs to.
  let io: AppIO
  var stderrIsTerminal: Bool { io.stderrIsTerminal }
  let useColor: Bool
  /// The spinner or banner line on stderr, shared by every copy of this console.
  let liveLine: LiveLine
  /// How this front end's hints name commands.
  let words: CommandWords

  package init(
    json: Bool, jsonLines: Bool = false, io: AppIO, words: CommandWords = .commandLine
  ) {
    self.json = json
    self.jsonLines = jsonLines
    self.io = io
    self.words = words
    liveLine = io.liveLine ?? LiveLine(write: io.writeError)
    let noColor = io.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    useColor = io.stderrIsTerminal && !noColor && io.environment["TERM"] != "dumb"
  }

  /// A line of data on stdout, below any live line.
  package func output(_ text: String) {
    liveLine.above { io.writeOutput(text + "\n") }
  }

  /// Part of the data on stdout, as it is: large answers are written a chunk at a time,
  /// and their last chunk ends the line.
  func outputPart(_ text: String) {
    liveLine.above { io.writeOutput(text) }
  }

  /// `outputPart` for text already in UTF-8 (everybody's messages, a chunk at a time).
  func outputPart(utf8 bytes: [UInt8]) {
    liveLine.above {
      if let writeBytes = io.writeOutputBytes {
        writeBytes(bytes)
      } else {
        io.writeOutput(String(decoding: bytes, as: UTF8.self))
      }
    }
  }

  /// A line for the person on stderr, below any live line.
  package func message(_ text: String) {
    liveLine.above { io.writeError(text + "\n") }
  }

  /// Text on stderr with no newline, such as a prompt. A question goes through `LineInput`,
  /// which puts the live line away first.
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
    if let hint = error.hint(in: words) { message(paint("hint:", code: "2") + " " + hint) }
  }

  /// Reports the failure that ends the command: on stderr, and as `{"error": …}` on stdout
  /// under `--json`, so that a script always gets one JSON document.
  func report(_ error: UserFacingError) {
    show(error)
    if json {
      if jsonLines {
        JSONOutput.writeLine(["error": ErrorDocument(error)], to: self)
      } else {
        JSONOutput.write(["error": ErrorDocument(error)], to: self)
      }
    }
  }

  /// Shows `label` while `operation` runs: a spinner on a terminal, one plain line otherwise.
  /// Cancelled (Ctrl-C), the spinner goes at once, even while the operation finishes
  /// something it cannot cut short.
  @MainActor
  func withActivity<T>(_ label: String, _ operation: () async -> T) async -> T {
    let progress = ProgressLine(console: self)
    progress.show("\(label)…")
    let result = await withTaskCancellationHandler {
      await operation()
    } onCancel: {
      Task { @MainActor in progress.finish() }
    }
    progress.finish()
    return result
  }

  private func paint(_ text: String, code: String) -> String {
    useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
