import ArgumentParser
import Presentation

/// The exit codes `app` promises (see `app --help`).
package enum ExitCodes {
  static let failure = ExitCode(1)
  /// As the GitHub CLI: signed out, or the session was rejected.
  static let authenticationRequired = ExitCode(4)
  /// As shells report a command ended by Ctrl-C (128 + SIGINT).
  package static let interrupted = ExitCode(130)

  static func code(for error: UserFacingError) -> ExitCode {
    if error.code == InterruptSignal.error.code { return interrupted }
    return error.signingInHelps ? authenticationRequired : failure
  }
}

extension Console {
  /// Reports `error` and returns the exit code that goes with it, for `throw`.
  package func fail(_ error: UserFacingError) -> ExitCode {
    report(error)
    return ExitCodes.code(for: error)
  }
}
