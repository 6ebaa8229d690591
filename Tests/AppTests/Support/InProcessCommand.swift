import Foundation
import Synchronization

@testable import App

/// Runs one `app` command in this process through `AppMain.run`, as the binary does: parse,
/// run, and turn how it ended into a message and an exit code. The command sees only its own
/// streams and environment, through `AppIO`.
enum InProcessCommand {
  static func run(
    _ arguments: [String], stdin: String?, environment: [String: String],
    seams: CompositionSeams
  ) async -> AppRunner.Result {
    let stdout = Capture()
    let stderr = Capture()
    let input = Input(stdin ?? "")
    let io = AppIO(
      environment: environment, writeOutput: stdout.append, writeError: stderr.append,
      readLine: input.readLine, readToEnd: input.readToEnd, stdinIsTerminal: false,
      stdoutIsTerminal: false, stderrIsTerminal: false, handlesSignals: false, seams: seams)
    let started = ContinuousClock.now
    let status = await AppMain.run(arguments, io: io)
    return AppRunner.Result(
      stdout: stdout.text, stderr: stderr.text, status: status,
      seconds: (ContinuousClock.now - started) / .seconds(1))
  }

  /// What a command wrote to one stream.
  private final class Capture: Sendable {
    private let buffer = Mutex("")
    var text: String { buffer.withLock { $0 } }
    @Sendable func append(_ text: String) { buffer.withLock { $0 += text } }
  }

  /// Standard input as a string, read line by line or all at once.
  private final class Input: Sendable {
    private let rest: Mutex<Substring>

    init(_ text: String) { rest = Mutex(Substring(text)) }

    @Sendable func readLine() -> String? {
      rest.withLock { rest in
        guard !rest.isEmpty else { return nil }
        guard let newline = rest.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) else {
          defer { rest = "" }
          return String(rest)
        }
        defer { rest = rest[rest.index(after: newline)...] }
        return String(rest[..<newline])
      }
    }

    @Sendable func readToEnd() -> Data {
      rest.withLock { rest in
        defer { rest = "" }
        return Data(rest.utf8)
      }
    }
  }
}
