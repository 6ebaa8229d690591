import ArgumentParser
import Dispatch
import Domain
import Foundation
import Presentation

extension AppCommand.Likes {
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show new likes and mutual matches as they happen, until Ctrl-C or --for.",
      discussion: """
        One line per event. With --json, one JSON object per line (JSON Lines). On a terminal a
        match banner also shows on a status line for 10 seconds. The embedded backend makes up a
        like every 10 to 15 s; APP_DEMO_LIKE_SECONDS=2 makes it faster for demos.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(
      name: .customLong("for"),
      help: ArgumentHelp(
        "Stop after this long, at most 24h: 45s, 5m, 1h or plain seconds.",
        valueName: "duration"))
    var duration: WatchDuration?

    func run() async throws {
      try await Self.watch(options, for: duration?.value)
    }

    private struct EventDocument: Encodable {
      let event: String
      let item: LikesScreen.ItemDocument?
      let unread: Int?
      let message: String?
    }

    @MainActor
    static func watch(_ options: GlobalOptions, for duration: Duration?) async throws {
      let context = try await LikesComposition(options: options)
      let console = context.command.console
      let center = context.notificationCenter()
      let viewModel = center.watch
      center.onWatchUpdate = { render($0, console: console) }
      // On a terminal the banner on screen also stands on a status line until its time is up.
      if console.stderrIsTerminal {
        center.banners.onChange = { banner in
          console.prompt("\r\u{1B}[2K" + (banner.map(LikesScreen.bannerLine) ?? ""))
        }
      }
      console.message("Watching for new likes and matches… (Ctrl-C to stop)")

      // Ctrl-C ends the watch cleanly instead of killing the process mid-line; so does the
      // end of `--for`.
      let watching = Task { await viewModel.run() }
      let timer = duration.map { limit in
        Task {
          try? await context.sleep(for: limit)
          watching.cancel()
        }
      }
      await InterruptHandler().run {
        await withTaskCancellationHandler {
          await watching.value
        } onCancel: {
          watching.cancel()
        }
      }
      timer?.cancel()
      center.banners.stop()
      if console.stderrIsTerminal && center.banners.current != nil { console.prompt("\r\u{1B}[2K") }

      let state = viewModel.state
      if let failure = state.failure { throw console.fail(failure) }
      console.message(LikesScreen.watchSummary(newLikes: state.newLikes, matches: state.matches))
    }

    @MainActor
    private static func render(_ update: LikesWatchViewModel.Update, console: Console) {
      switch update {
      case .newLike(let item, let unread):
        if console.json {
          JSONOutput.writeLine(
            EventDocument(event: "newLike", item: .init(item), unread: unread, message: nil),
            to: console)
        } else {
          console.output(LikesScreen.newLikeLine(item, unread: unread))
        }
      case .match(let text):
        if console.json {
          JSONOutput.writeLine(
            EventDocument(event: "mutualMatch", item: nil, unread: nil, message: text), to: console)
        } else {
          console.output(LikesScreen.bannerLine(text))
        }
      }
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
