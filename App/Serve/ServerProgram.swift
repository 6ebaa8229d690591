import ArgumentParser
import Foundation
import Presentation

#if canImport(Glibc)
  import Glibc
#endif

/// `app serve` in `app`: the process becomes `app-server`, the program next to it that has
/// the server's dependencies (Hummingbird, PostgreSQL, Prometheus), which `app` never loads
/// at start. `app` has checked the command line already; `app-server` reads the same one
/// with the same `AppCommand.Serve`. The process stays the same one (`execv`): its id, its
/// streams, its signals and its exit status are `app serve`'s, as they always were.
enum ServerProgram {
  /// The program's name, next to `app`.
  static let name = "app-server"

  /// Does `app-server`'s command line ask for help: `--help` or `-h` before any `--`, or
  /// `help` as its first word? ArgumentParser would answer with `app`'s own help.
  static func asksForHelp(_ arguments: [String]) -> Bool {
    let options = arguments.prefix { $0 != "--" }
    return arguments.first == "help" || options.contains("--help") || options.contains("-h")
  }

  /// Replaces this process with `app-server` and the same arguments. Returns only when it
  /// cannot: the failure to end the command with, already reported.
  static func replaceThisProcess(io: AppIO) -> ExitCode {
    let console = Console(json: false, io: io)
    // In a test's process, there is no process of its own to replace.
    guard io.handlesSignals else {
      return console.fail(
        UserFacingError(
          code: "serve_failed", message: "app serve runs only as a process of its own."))
    }
    let program = location()
    let arguments = [name] + CommandLine.arguments.dropFirst()
    resetSignals()
    let cArguments = arguments.map { strdup($0) } + [nil]
    execv(program, cArguments)
    let reason = String(cString: strerror(errno))
    return console.fail(
      UserFacingError(
        code: "serve_failed",
        message: "Cannot serve: \(program) could not be started (\(reason)).",
        hint: "`app serve` runs \(name), which is installed next to app: build it with "
          + "`swift build --product \(name)`, or reinstall the package."))
  }

  /// `app-server` in the folder of the running `app`, symbolic links followed.
  static func location() -> String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }

  /// A new program inherits the calling thread's blocked signals and every ignored one:
  /// `app-server` starts as any process does, with none blocked and Ctrl-C, SIGTERM and
  /// SIGPIPE at their defaults, and sets them up itself.
  private static func resetSignals() {
    var none = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, nil)
    for signal in [SIGINT, SIGTERM, SIGPIPE] {
      Glibc.signal(signal, SIG_DFL)
    }
  }
}
