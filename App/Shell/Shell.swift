import Foundation
import Presentation

/// `app` with no command. At a terminal (stdin and stdout both) it is interactive: libedit,
/// history in the data folder, realtime banners, Ctrl-C back to the prompt. Otherwise it
/// reads a script, one command per line, and writes a transcript; the exit code is the
/// first failing line's.
enum Shell {
  @MainActor
  static func run(options: GlobalOptions, io: AppIO) async -> Int32 {
    let interactive = io.stdinIsTerminal && io.stdoutIsTerminal && io.handlesSignals
    let lines = ScriptLines()
    var shellIO = interactive ? io : lines.numbering(io)
    let liveLine = LiveLine(write: shellIO.writeError)
    shellIO.liveLine = liveLine
    shellIO.isLongLived = true
    let root: CompositionRoot
    do {
      root = try await AppIO.$current.withValue(shellIO) {
        try await CompositionRoot(options: options, io: shellIO)
      }
    } catch {
      return Console(json: false, io: shellIO)
        .fail(UserFacingError(code: "setup_failed", message: UserFacingError.describing(error)))
        .rawValue
    }
    let input: any ShellInput =
      if interactive {
        TerminalShellInput(
          editor: LineEditor(
            historyFile: ShellHistory(file: root.dataFolder.file(ShellHistory.fileName))),
          liveLine: liveLine)
      } else {
        ScriptShellInput(io: shellIO)
      }
    let session = ShellSession(io: shellIO, root: root, input: input)
    let responder =
      interactive
      ? InterruptSignal.shared.addResponder {
        session.interrupted()
        return true
      } : nil
    defer { responder.map(InterruptSignal.shared.removeResponder) }
    return await session.run()
  }
}
