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
      try await Self.watch(options, io: io, for: duration?.value)
    }

    @MainActor
    static func watch(_ options: GlobalOptions, io: AppIO, for duration: Duration?) async throws {
      let context = try await LikesComposition(options: options, io: io, jsonLines: true)
      let console = context.command.console
      let center = context.notificationCenter()
      let viewModel = center.watch
      // On a terminal a match stands on the live line for its 10 s. When stdout is that
      // terminal too, it is written as a line of the transcript only once it leaves the live
      // line, so the screen never shows it twice; a pipe gets it at once.
      let banners = WatchBanners(console: console)
      center.onWatchUpdate = { render($0, console: console, banners: banners) }
      if console.stderrIsTerminal {
        center.banners.onChange = { banners.stand($0) }
      }

      // Ctrl-C ends the watch cleanly instead of killing the process mid-line; so does the
      // end of `--for`. The watch is announced from inside `interrupt.run`, once Ctrl-C is
      // routed to it: a Ctrl-C right after the announcement used to find no work running
      // and end the command at once, without the summary.
      let interrupt = InterruptHandler(io: io)
      await interrupt.run {
        console.message("Watching for new likes and matches… (Ctrl-C to stop)")
        let watching = Task { await viewModel.run() }
        let timer = duration.map { limit in
          Task {
            try? await context.sleep(for: limit)
            watching.cancel()
          }
        }
        await withTaskCancellationHandler {
          await watching.value
        } onCancel: {
          watching.cancel()
        }
        timer?.cancel()
      }
      center.banners.stop()
      banners.finish(waiting: center.banners.waiting)

      let state = viewModel.state
      if let failure = state.failure { throw console.fail(failure) }
      console.message(LikesScreen.watchSummary(newLikes: state.newLikes, matches: state.matches))
      if interrupt.wasInterrupted { throw console.fail(InterruptSignal.error) }
    }

    @MainActor
    private static func render(
      _ update: LikesWatchViewModel.Update, console: Console, banners: WatchBanners
    ) {
      switch update {
      case .newLike(let item, let unread):
        if console.json {
          JSONOutput.writeLine(
            LikesScreen.WatchEventDocument.newLike(item, unread: unread),
            to: console)
        } else {
          console.output(LikesScreen.newLikeLine(item, unread: unread))
        }
      case .match(let text):
        if console.json {
          JSONOutput.writeLine(
            LikesScreen.WatchEventDocument.mutualMatch(text), to: console)
        } else if !banners.writesMatchesWhenTheyLeave {
          console.output(LikesScreen.bannerLine(text))
        }
      // How the connection goes is news for the person, on stderr: stdout keeps the events.
      case .interrupted(let failure):
        console.warning("Realtime updates are failing: \(failure.message) Still trying.")
      case .resumed:
        console.message("Realtime updates are back.")
      }
    }
  }
}

/// The match banner on the live line, and when it becomes a line of the transcript.
@MainActor
final class WatchBanners {
  private let console: Console
  private var standing: String?
  /// Stdout and stderr are the same screen: a match is written once, as it leaves.
  let writesMatchesWhenTheyLeave: Bool

  init(console: Console) {
    self.console = console
    writesMatchesWhenTheyLeave = console.stderrIsTerminal && console.io.stdoutIsTerminal
  }

  /// Puts `banner` on the live line (nil: none), writing the one that leaves it down first.
  func stand(_ banner: String?) {
    guard console.stderrIsTerminal else { return }
    console.liveLine.clear()
    if writesMatchesWhenTheyLeave, let left = standing {
      console.output(LikesScreen.bannerLine(left))
    }
    standing = banner
    if let banner { console.liveLine.show(LikesScreen.bannerLine(banner)) }
  }

  /// The watch is over: the banner standing and those still waiting their turn are written.
  func finish(waiting: [String]) {
    stand(nil)
    guard writesMatchesWhenTheyLeave else { return }
    for banner in waiting { console.output(LikesScreen.bannerLine(banner)) }
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
