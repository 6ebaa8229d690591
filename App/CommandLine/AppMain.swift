import ArgumentParser
import Data
import Foundation
import Keyring
import Presentation
import SystemSupport

/// The executables' entry: reads the command line, runs the command, and turns how it
/// ended into one exit code and, on failure, a message on stderr (and one JSON document on
/// stdout under `--json`). Tests run commands through `run(_:io:)` too, with streams of
/// their own, so that what they check is what the binary does.
package enum AppMain {
  /// The process's whole life, on its own streams (`AppIO.standard`) with the executable's
  /// seams. `servesOnly` is `app-server`'s: `app serve`'s command line and no other.
  package static func main(io: AppIO = .standard, servesOnly: Bool = false) async -> Never {
    var arguments = Array(CommandLine.arguments.dropFirst())
    // `app-server --help` (or `-h`, `help`, anywhere) is the help of the one command it runs.
    let servesHelp = servesOnly && ServerProgram.asksForHelp(arguments)
    if servesHelp { arguments = ["serve", "--help"] }
    // Beside the parsing, which is most of a short command's own time. Only for commands
    // whose heap stays small (`KeyringWarmUp`): the thread allocates before the large-heap
    // settings below could be made.
    if !servesOnly, KeyringWarmUp.isWorthStarting(arguments, environment: io.environment) {
      SecretServiceWarmUp.start(loadingLibsecret: KeyringWarmUp.readsTheToken(arguments))
    }
    var parsed = parse(arguments, io: io)
    if servesOnly, !servesHelp, !parsed.isServeOrFinished {
      Console(json: false, io: io).message(
        "error: \(ServerProgram.name) runs `app serve`; every other command is app's.")
      parsed = .finished(ExitCode.validationFailure.rawValue)
    }
    // Only where the heap grows to hundreds of megabytes; elsewhere it costs start-up
    // time.
    if case .command(let command, _) = parsed, HeapUse.of(command) == .large {
      HeapSettings.apply()
    }
    InterruptSignal.shared.install(io: io, json: CommandLineArguments.wantsJSON(arguments))
    let status = await run(parsed, io: io)
    // Everything the app writes goes out with write(2) as it is produced, and no library
    // keeps state that needs exit handlers; `exit` would only run glib's, libsecret's and
    // the C++ runtime's teardown, about half a millisecond of every command.
    fflush(nil)
    _exit(status)
  }

  /// Runs `app arguments…` with `io` as its streams; returns the exit status. The process
  /// goes on after the command (a test's), so the app databases the command opened are
  /// closed before this returns: nothing of the command happens after it.
  package static func run(_ arguments: [String], io: AppIO) async -> Int32 {
    var io = io
    let opened = OpenDatabases()
    io.openDatabases = opened
    let status = await run(parse(arguments, io: io), io: io)
    await opened.closeAll()
    return status
  }

  /// A command line, parsed.
  enum Parsed {
    /// No command (global options at most): the shell.
    case shell(GlobalOptions)
    case command(any ParsableCommand, Invocation)
    /// Help, the version or a usage error, already reported: the exit status.
    case finished(Int32)

    var isServeOrFinished: Bool {
      switch self {
      case .shell: false
      case .command(let command, _): command is AppCommand.Serve
      case .finished: true
      }
    }
  }

  /// What a failure of the command is reported with.
  struct Invocation {
    let arguments: [String]
    let json: Bool
  }

  /// Parses under `io`'s environment (`AppIO.current`, which `validate()` reads).
  static func parse(_ arguments: [String], io: AppIO) -> Parsed {
    AppIO.$current.withValue(io) { parseWithoutStreams(arguments, io: io) }
  }

  private static func parseWithoutStreams(_ arguments: [String], io: AppIO) -> Parsed {
    let normalized = CommandLineArguments.normalized(arguments)
    let json = CommandLineArguments.wantsJSON(arguments)
    if normalized.isEmpty {
      do {
        let options = try GlobalOptions.parse(arguments)
        guard !options.json else {
          throw ValidationError(
            "The shell answers in text; --json goes with a command, as in `app --json likes`.")
        }
        return .shell(options)
      } catch {
        return .finished(report(parseError: error, arguments: arguments, json: json, io: io))
      }
    }
    do {
      return .command(
        try AppCommand.parseAsRoot(normalized), Invocation(arguments: normalized, json: json))
    } catch {
      return .finished(report(parseError: error, arguments: normalized, json: json, io: io))
    }
  }

  static func run(_ parsed: Parsed, io: AppIO) async -> Int32 {
    let command: any ParsableCommand
    let invocation: Invocation
    switch parsed {
    case .shell(let options): return await Shell.run(options: options, io: io)
    case .finished(let status): return status
    case .command(let parsed, let how): (command, invocation) = (parsed, how)
    }
    do {
      try await runOpened(command, io: io)
      return 0
    } catch let code as ExitCode {
      // The command has reported its failure already.
      return code.rawValue
    } catch {
      return report(
        parseError: error, arguments: invocation.arguments, json: invocation.json, io: io)
    }
  }

  /// Runs a parsed command as the kind of command it is. Generic, so that each cast starts
  /// from the command's own type: a cast of an `any ParsableCommand` first asks whether the
  /// existential type itself conforms, and each first question of a (type, protocol) pair
  /// costs a scan of every conformance record in the binary (docs/decisions/, "What the
  /// page's conformance scans are").
  private static func runOpened<Command: ParsableCommand>(_ command: Command, io: AppIO)
    async throws
  {
    if let runnable = command as? any AppRunnableCommand {
      try await runnable.run(io: io)
    } else if var asynchronous = command as? any AsyncParsableCommand {
      try await asynchronous.run()
    } else {
      var running = command
      try running.run()
    }
  }

  /// Help and `--version` on stdout with 0 (under `--json` as a document); a usage error on stderr with 64, a nearby
  /// command's name when a word names none, and under `--json` as a `usage` error document.
  private static func report(parseError error: Error, arguments: [String], json: Bool, io: AppIO)
    -> Int32
  {
    let code = AppCommand.exitCode(for: error)
    let text = AppCommand.fullMessage(for: error)
    if code == .success {
      if json {
        let member = text == AppVersion.current ? "version" : "help"
        JSONOutput.write([member: text], to: Console(json: true, io: io))
      } else if !text.isEmpty {
        io.writeOutput(text + "\n")
      }
      return 0
    }
    var message = AppCommand.message(for: error)
    if message.isEmpty { message = "The command could not be run." }
    let console = Console(json: false, io: io)
    var suggestion: String?
    if let mistyped = CommandLineArguments.mistypedCommand(in: arguments) {
      // ArgumentParser would name whatever it tripped over first (`--user` in
      // `app mesages --user x`); the word that names no command is the real slip.
      message = "'\(mistyped.word)' is not a command."
      suggestion =
        mistyped.meant.map { "Did you mean '\($0)'?" }
        ?? "Run `app --help` to see the commands."
      console.message("error: \(message)")
      console.message("hint: \(suggestion ?? "")")
    } else {
      // Every error starts the same way, the app's own (`error:`) and ArgumentParser's.
      console.message(text.isEmpty ? "error: \(message)" : Self.lowercasingErrorLabel(text))
    }
    if json {
      let hint = suggestion ?? "Run `app --help` to see the commands and their options."
      JSONOutput.write(
        ["error": ErrorDocument(code: "usage", message: message, hint: hint)],
        to: console)
    }
    return code.rawValue
  }

  /// ArgumentParser's "Error: …" as the app's "error: …".
  private static func lowercasingErrorLabel(_ text: String) -> String {
    text.hasPrefix("Error: ") ? "error: " + text.dropFirst("Error: ".count) : text
  }
}
