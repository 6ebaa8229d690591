import ArgumentParser
import Domain
import Foundation

extension AppCommand {
  struct Prepare: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "prepare",
      abstract: "Get ready for the hearing check: headphones, quiet, volume at 50%.",
      discussion: """
        Reads one command per line from a terminal or a script (`app prepare < steps.txt`) \
        and prints each screen as it appears. The sensors are simulated: `headphones on|off`, \
        `volume <0-100>`, `noise <dB>` (quiet is 40 dB or less). Type `help` for every command.

        An accepted requirement that stops holding interrupts whatever is on screen; a \
        satisfied interruption goes 2 s later.

        A script line that is not a command is reported on stderr and makes the exit code 64 \
        once the script has run.
        """)

    @Option(help: "The answer to the microphone prompt: granted or denied.")
    var microphone: MicrophoneAnswer = .granted

    @Flag(help: "Let time pass only with `wait`, at once: for scripts and tests.")
    var virtualClock = false

    func run(io: AppIO) async throws {
      try await PreparationFeature.run(
        microphone: microphone.access, virtualClock: virtualClock, io: io)
    }
  }
}

/// `--microphone granted|denied`.
enum MicrophoneAnswer: String, ExpressibleByArgument, CaseIterable {
  case granted
  case denied

  var access: MicrophoneAccess { self == .granted ? .granted : .denied }
}
