import ArgumentParser
import Dispatch
import Domain
import Foundation
import Presentation

extension AppCommand.Likes {
  struct Watch: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch",
      abstract: "Show new likes and mutual matches as they happen, until Ctrl-C or --for.",
      discussion: """
        One line per event; with --json, one JSON object per line (JSON Lines). On a terminal \
        a match banner stands on a status line for 10 seconds. Exits 0 at the end of --for, \
        130 on Ctrl-C, after the summary.

        The embedded backend makes up a like every 10 to 15 s; APP_DEMO_LIKE_SECONDS=2 makes \
        it faster for demos.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(
      name: .customLong("for"),
      help: ArgumentHelp(
        "Stop after this long, at most 24h: 45s, 5m, 1h or plain seconds.",
        valueName: "duration"))
    var duration: WatchDuration?

    func run(io: AppIO) async throws {
      try await LikesWatchFeature.watch(options, io: io, for: duration?.value)
    }
  }
}

/// A duration typed as `45s`, `5m`, `1h` or plain seconds, from a millisecond to a day.
struct WatchDuration: ExpressibleByArgument {
  static let longest: Double = 24 * 3600

  let value: Duration

  init?(argument: String) {
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
    let unit = argument.last.flatMap { units[$0] }
    let number = unit == nil ? argument : String(argument.dropLast())
    // Checked before any conversion to an integer: 1e20 seconds does not fit in one.
    guard let amount = Double(number), amount.isFinite else { return nil }
    let seconds = amount * (unit ?? 1)
    guard seconds >= 0.001, seconds <= Self.longest else { return nil }
    value = .milliseconds(Int64(seconds * 1000))
  }
}

extension AppCommand {
  struct Watch: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch",
      abstract:
        "Show everything as it happens: likes, matches, messages and ended matches, until Ctrl-C or --for.",
      discussion: """
        One line per event; with --json, one JSON object per line (JSON Lines) whose "type" \
        is the event's: likedYouInserted, mutualMatch, message or unmatched. Events of a kind \
        this app does not know are passed over. Exits 0 at the end of --for, 130 on Ctrl-C, \
        after the summary.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(
      name: .customLong("for"),
      help: ArgumentHelp(
        "Stop after this long, at most 24h: 45s, 5m, 1h or plain seconds.",
        valueName: "duration"))
    var duration: WatchDuration?

    func run(io: AppIO) async throws {
      try await LikesWatchFeature.watch(
        options, io: io, for: duration?.value, everything: true)
    }
  }
}
