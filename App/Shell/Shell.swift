import Foundation
import Presentation
import SystemSupport
import Terminal

/// `app` with no command. At a terminal (stdin and stdout both) it is interactive: libedit,
/// history in the data folder, realtime banners, Ctrl-C back to the prompt. Otherwise it
/// reads a script, one command per line, and writes a transcript; the exit code is the
/// first failing line's.
enum Shell {
  /// The shell's history, in the data folder: its accepted command lines, the last 500.
  static let historyFileName = "shell-history"

  @MainActor
  static func run(options: GlobalOptions, io: AppIO) async -> Int32 {
    let interactive = io.stdinIsTerminal && io.stdoutIsTerminal && io.handlesSignals
    let lines = ScriptLines()
    var shellIO = interactive ? io : lines.numbering(io)
    // A command left behind after Ctrl-C (`RunningCommand`) writes nothing more.
    shellIO.writeOutput = CommandOutput.dropsSilenced(shellIO.writeOutput)
    shellIO.writeOutputBytes = shellIO.writeOutputBytes.map(CommandOutput.dropsSilenced)
    shellIO.writeError = CommandOutput.dropsSilenced(shellIO.writeError)
    let liveLine = LiveLine(write: shellIO.writeError)
    shellIO.liveLine = liveLine
    shellIO.isLongLived = true
    let root: CompositionRoot
    do {
      root = try await CompositionRoot(options: options, io: shellIO)
    } catch {
      return Console(json: false, io: shellIO)
        .fail(UserFacingError(code: "setup_failed", message: UserFacingError.describing(error)))
        .rawValue
    }
    let input: any ShellInput
    var resize: SignalPipe?
    let activity = CommandActivity()
    if interactive {
      let editor = LineEditor(historyFile: HistoryFile(file: root.dataFolder.file(historyFileName)))
      // Every question a command asks is the editor's too; Ctrl-C at one is Ctrl-C for the
      // command that asked.
      shellIO.questions = EditorQuestions(
        editor: editor,
        interruptCommand: { if activity.isRunning { InterruptSignal.shared.deliver() } })
      input = TerminalShellInput(editor: editor, liveLine: liveLine)
      resize = followingResizes(editor)
    } else {
      input = ScriptShellInput(io: shellIO)
    }
    defer { resize?.cancel() }
    let session = ShellSession(io: shellIO, root: root, input: input, activity: activity)
    let responder =
      interactive
      ? InterruptSignal.shared.addResponder {
        session.interrupted()
        return true
      } : nil
    defer { responder.map(InterruptSignal.shared.removeResponder) }
    return await session.run()
  }

  /// Tells `editor` each time the terminal changes size (SIGWINCH), until cancelled.
  private static func followingResizes(_ editor: LineEditor) -> SignalPipe? {
    SignalPipe.watch(SIGWINCH) { editor.resized() }
  }
}
