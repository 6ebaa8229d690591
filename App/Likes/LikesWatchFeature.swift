import Dispatch
import Domain
import Foundation
import Presentation

/// `app likes watch`: realtime likes and matches as lines (or JSON Lines) until Ctrl-C or
/// `--for` ends it. `app watch` (`everything`) shows messages and ended matches too, its
/// JSON lines typed as the contract's events (`WatchScreen`).
enum LikesWatchFeature {
  @MainActor
  static func watch(
    _ options: GlobalOptions, io: AppIO, for duration: Duration?, everything: Bool = false
  ) async throws {
    let context = try await LikesComposition(options: options, io: io, jsonLines: true)
    let console = context.command.console
    let center = context.notificationCenter()
    let viewModel = center.watch
    // On a terminal a match stands on the live line for its 10 s. When stdout is that
    // terminal too, it is written as a line of the transcript only once it leaves the live
    // line, so the screen never shows it twice; a pipe gets it at once.
    let banners = WatchBanners(console: console)
    center.onWatchUpdate = {
      render($0, console: console, banners: banners, everything: everything)
    }
    if console.stderrIsTerminal {
      center.banners.onChange = { banners.stand($0) }
    }

    // Ctrl-C ends the watch cleanly instead of killing the process mid-line; so does the
    // end of `--for`. The watch is announced from inside `interrupt.run`, once Ctrl-C is
    // routed to it: a Ctrl-C right after the announcement used to find no work running
    // and end the command at once, without the summary.
    let interrupt = InterruptHandler(io: io)
    await interrupt.run {
      console.message(
        everything
          ? "Watching for likes, matches and messages… (Ctrl-C to stop)"
          : "Watching for new likes and matches… (Ctrl-C to stop)")
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
    console.message(
      everything
        ? WatchScreen.summary(state)
        : LikesScreen.watchSummary(newLikes: state.newLikes, matches: state.matches))
    if interrupt.wasInterrupted { throw console.fail(InterruptSignal.error) }
  }

  @MainActor
  private static func render(
    _ update: LikesWatchViewModel.Update, console: Console, banners: WatchBanners,
    everything: Bool
  ) {
    if everything, console.json, let document = WatchScreen.document(update) {
      JSONOutput.writeLine(document, to: console)
      return
    }
    switch update {
    case .newLike(let item, let unread):
      if console.json {
        JSONOutput.writeLine(
          LikesScreen.WatchEventDocument.newLike(item, unread: unread),
          to: console)
      } else {
        console.output(LikesScreen.newLikeLine(item, unread: unread))
      }
    case .match(let text, _):
      if console.json {
        JSONOutput.writeLine(
          LikesScreen.WatchEventDocument.mutualMatch(text), to: console)
      } else if !banners.writesMatchesWhenTheyLeave {
        console.output(LikesScreen.bannerLine(text))
      }
    // How the connection goes is news for the person, on stderr: stdout keeps the events.
    case .interrupted(let failure):
      console.warning(
        "Realtime updates are failing: \(failure.sentences(in: console.words)) Still trying.")
    case .resumed:
      console.message("Realtime updates are back.")
    case .notKept(let failure):
      console.warning(
        "New likes cannot be kept on this machine: \(failure.sentences(in: console.words)) "
          + "They still show here.")
    case .unreadChanged:
      // The next new like carries the badge as it stands.
      break
    case .message, .unmatched:
      // `app likes watch` shows likes and matches only.
      if everything, let line = WatchScreen.line(update) { console.output(line) }
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
