import Domain
import Foundation
import Presentation

/// The likes screens' entry points, shared by both front ends: `app likes …` builds one for
/// its one command, and the shell keeps one for as long as its home is open, so that its
/// notification center (the page, the badge, the realtime watch) lives as long as the home.
/// Each entry point shows what it did on the composition's console and returns what a front
/// end remembers of it; a failure is reported there and thrown as its exit code.
@MainActor
final class LikesFeature {
  let composition: LikesComposition
  let center: NotificationCenterViewModel
  private var console: Console { composition.command.console }
  /// Why the pages shown could not be kept, as last said: said again only when it changes,
  /// so a shell without a cache (its folder unwritable) says so once, not at every page.
  private var saidStorageWarning: UserFacingError?

  init(_ composition: LikesComposition) {
    self.composition = composition
    center = composition.notificationCenter()
  }

  /// What a shown page leaves behind: the page, and the badge as it now stands.
  struct Shown {
    let page: LikesPage
    let unread: Int
  }

  /// One page of people who liked you: the cache's, or the server's with `refresh`;
  /// `shift` is how far the list moved since its first page was shown (the shell's).
  @discardableResult
  func showPage(_ page: Int, batchSize: Int = 10, refresh: Bool, shift: Int = 0) async throws
    -> Shown?
  {
    let viewModel = center.likedYou
    await console.withActivity("Loading likes") {
      await viewModel.load(page: page, batchSize: batchSize, refresh: refresh, shift: shift)
    }
    if let error = viewModel.state.error { throw console.fail(error) }
    guard let loaded = viewModel.state.page else { return nil }
    let warning = viewModel.state.storageWarning
    if let warning, warning != saidStorageWarning {
      console.warning(
        "The page could not be kept on this machine: \(warning.sentences(in: console.words))")
    }
    saidStorageWarning = warning
    let secondsLeft = viewModel.state.unblurSecondsLeft
    if console.json {
      JSONOutput.write(
        LikesScreen.document(
          loaded, unblurSecondsLeft: secondsLeft, unread: viewModel.state.unread),
        to: console)
    } else {
      console.output(
        LikesScreen.lines(
          loaded, unblurSecondsLeft: secondsLeft, unread: viewModel.state.unread, now: Date(),
          words: console.words
        )
        .joined(separator: "\n"))
    }
    return Shown(page: loaded, unread: viewModel.state.badge)
  }

  /// Opens the unblur window.
  func unblur() async throws {
    do {
      let end = try await composition.unblur()
      let seconds = Int(UnblurWindow.length)
      if console.json {
        JSONOutput.write(
          LikesScreen.UnblurDocument(unblurredUntil: TimeText.iso8601(end), secondsLeft: seconds),
          to: console)
      } else {
        console.output("Unblurred for \(seconds) s, until \(TimeText.clock(end, now: Date())).")
      }
    } catch {
      throw console.fail(UserFacingError(error))
    }
  }

  /// Likes somebody back, or skips them: the optimistic request and its report.
  func respond(to id: String, liking: Bool) async throws {
    let viewModel = center.likedYou
    await console.withActivity(liking ? "Liking back" : "Skipping") {
      if liking { await viewModel.likeBack(id) } else { await viewModel.skip(id) }
    }
    if let error = viewModel.state.error { throw console.fail(error) }
    if console.json {
      let answer = viewModel.state.answered
      JSONOutput.write(
        LikesScreen.AnswerDocument(
          action: liking ? "like" : "skip", id: answer?.id ?? id, name: answer?.name,
          mutualMatch: answer?.mutualMatch ?? false,
          message: viewModel.state.banner ?? viewModel.state.notice ?? ""),
        to: console)
    } else {
      if let banner = viewModel.state.banner { console.output(LikesScreen.bannerLine(banner)) }
      if let notice = viewModel.state.notice { console.output(notice) }
    }
  }

  /// The mutual matches, newest first.
  func showMutuals() async throws {
    await console.withActivity("Loading mutuals") { await center.mutuals.load() }
    let page: LikesPage
    switch center.mutuals.state {
    case .loaded(let loaded): page = loaded
    case .failed(let error): throw console.fail(error)
    case .idle, .loading: preconditionFailure("load() always finishes")
    }
    if console.json {
      JSONOutput.write(
        LikesScreen.MutualsDocument(page),
        to: console)
    } else {
      console.output(LikesScreen.mutualsLines(page, words: console.words).joined(separator: "\n"))
    }
  }
}
