import ArgumentParser
import Domain
import Foundation

/// The preparation's entry point, which `app prepare` and the shell's `prepare` both call.
enum PreparationFeature {
  /// The preparation on `io`'s streams: the shell's nested `prepare` too. A script with
  /// lines that were not commands ends as a usage error, once the rest has run.
  @MainActor
  static func run(
    microphone: MicrophoneAccess = .granted, virtualClock: Bool, io: AppIO
  ) async throws {
    let interactive = io.stdinIsTerminal && io.stderrIsTerminal
    let output = PreparationOutput(prompt: interactive ? "prepare> " : nil, io: io)
    let composition = PreparationComposition(
      microphone: microphone, virtualClock: virtualClock, output: output)
    let frontEnd = PreparationFrontEnd(
      console: Console(json: false, io: io), output: output, composition: composition)
    let rejected = await frontEnd.run()
    if rejected > 0 && !io.stdinIsTerminal { throw ExitCode.validationFailure }
  }
}
