import ArgumentParser
import Domain
import Foundation
import Presentation

extension AppCommand {
  struct Likes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "likes",
      abstract: "People who liked you, and your mutual matches.",
      subcommands: [List.self, Unblur.self, Like.self, Skip.self, Mutuals.self, Watch.self],
      defaultSubcommand: List.self)
  }
}

extension AppCommand.Likes {
  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract:
        "One page of people who liked you: from the cache when it has the page, else the server.",
      discussion:
        "Names stay blurred unless `app likes unblur` opened a window. Exit 4 when signed out.")

    @OptionGroup var options: GlobalOptions

    // `.unconditional`: `--page -1` is a page number to refuse, not a missing value.
    @Option(parsing: .unconditional, help: "The page, from 1 to \(Self.lastPage).")
    var page = 1

    @Option(parsing: .unconditional, help: "Likes per page, 1 to 100.")
    var batchSize = 10

    /// A million pages of up to 100: beyond any list, and far from overflowing a position.
    static let lastPage = 1_000_000

    @Flag(help: "Ask the server even when the cache has the page.")
    var refresh = false

    func validate() throws {
      guard (1...Self.lastPage).contains(page) else {
        throw ValidationError("--page must be from 1 to \(Self.lastPage).")
      }
      guard (1...100).contains(batchSize) else {
        throw ValidationError("--batch-size must be from 1 to 100.")
      }
    }

    func run() async throws {
      try await Self.show(options, page: page, batchSize: batchSize, refresh: refresh)
    }

    @MainActor
    static func show(_ options: GlobalOptions, page: Int, batchSize: Int, refresh: Bool)
      async throws
    {
      let context = try await LikesComposition(options: options)
      let console = context.command.console
      let center = context.notificationCenter()
      center.select(.likedYou)
      let viewModel = center.likedYou
      await console.withActivity("Loading likes") {
        await viewModel.load(page: page, batchSize: batchSize, refresh: refresh)
      }
      if let error = viewModel.state.error { throw console.fail(error) }
      guard let loaded = viewModel.state.page else { return }
      let secondsLeft = viewModel.state.unblurSecondsLeft
      if console.json {
        JSONOutput.write(
          LikesScreen.document(
            loaded, unblurSecondsLeft: secondsLeft, unread: viewModel.state.unread),
          to: console)
      } else {
        let shell = ShellScope.current
        console.output(
          LikesScreen.lines(
            loaded, unblurSecondsLeft: secondsLeft, unread: viewModel.state.unread, now: Date(),
            command: shell == nil
              ? { commandLine($0, batchSize: batchSize) } : ShellScope.likesCommand
          )
          .joined(separator: "\n"))
      }
      ShellScope.current?.home?.likesShown(loaded, unread: viewModel.state.unread)
    }

    /// How the command line names a page and the unblur.
    private static func commandLine(_ command: LikesScreen.PageCommand, batchSize: Int) -> String {
      let size = batchSize == 10 ? "" : " --batch-size \(batchSize)"
      switch command {
      case .page(let number): return "app likes\(size) --page \(number)"
      case .unblur: return "app likes unblur"
      }
    }
  }

  struct Unblur: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unblur",
      abstract: "Show the names of people who liked you for \(Int(UnblurWindow.length)) seconds.",
      discussion:
        "The window's end is kept, so every run until then shows names, and the first run after it blurs them again."
    )

    @OptionGroup var options: GlobalOptions

    private struct Document: Encodable {
      let unblurredUntil: String
      let secondsLeft: Int
    }

    func run() async throws {
      try await Self.unblur(options)
    }

    @MainActor
    static func unblur(_ options: GlobalOptions) async throws {
      let context = try await LikesComposition(options: options)
      let console = context.command.console
      do {
        let end = try await context.unblur()
        let seconds = Int(UnblurWindow.length)
        if console.json {
          JSONOutput.write(
            Document(
              unblurredUntil: ISO8601DateFormatter().string(from: end), secondsLeft: seconds),
            to: console)
        } else {
          console.output(
            "Unblurred for \(seconds) s, until \(ISO8601DateFormatter().string(from: end)).")
        }
      } catch {
        throw console.fail(UserFacingError(error))
      }
    }
  }

  struct Like: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "like",
      abstract: "Like somebody back: a mutual match, who then moves to your mutuals.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run() async throws {
      try await Respond.run(options, id: id, liking: true)
    }
  }

  struct Skip: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "skip", abstract: "Skip somebody: they leave the list.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run() async throws {
      try await Respond.run(options, id: id, liking: false)
    }
  }

  /// What `like` and `skip` share: the optimistic request and its report.
  enum Respond {
    private struct Document: Encodable {
      let action: String
      let id: String
      @NullWhenAbsent var name: String?
      let mutualMatch: Bool
      let message: String
    }

    @MainActor
    static func run(_ options: GlobalOptions, id: String, liking: Bool) async throws {
      let context = try await LikesComposition(options: options)
      let console = context.command.console
      let viewModel = context.notificationCenter().likedYou
      await console.withActivity(liking ? "Liking back" : "Skipping") {
        if liking { await viewModel.likeBack(id) } else { await viewModel.skip(id) }
      }
      if let error = viewModel.state.error { throw console.fail(error) }
      if console.json {
        let answer = viewModel.state.answered
        JSONOutput.write(
          Document(
            action: liking ? "like" : "skip", id: answer?.id ?? id, name: answer?.name,
            mutualMatch: answer?.mutualMatch ?? false,
            message: viewModel.state.banner ?? viewModel.state.notice ?? ""),
          to: console)
      } else {
        if let banner = viewModel.state.banner { console.output(LikesScreen.bannerLine(banner)) }
        if let notice = viewModel.state.notice { console.output(notice) }
      }
    }
  }

  struct Mutuals: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "mutuals", abstract: "Your mutual matches, newest first.")

    @OptionGroup var options: GlobalOptions

    private struct Document: Encodable {
      let items: [LikesScreen.ItemDocument]
      let source: String
      let offline: Bool
    }

    func run() async throws {
      try await Self.show(options)
    }

    @MainActor
    static func show(_ options: GlobalOptions) async throws {
      let context = try await LikesComposition(options: options)
      let console = context.command.console
      let center = context.notificationCenter()
      center.select(.mutuals)
      await console.withActivity("Loading mutuals") { await center.mutuals.load() }
      let page: LikesPage
      switch center.mutuals.state {
      case .loaded(let loaded): page = loaded
      case .failed(let error): throw console.fail(error)
      case .idle, .loading: preconditionFailure("load() always finishes")
      }
      if console.json {
        JSONOutput.write(
          Document(
            items: page.items.map(LikesScreen.ItemDocument.init),
            source: page.isOffline ? "cache" : "server", offline: page.isOffline),
          to: console)
      } else {
        let likeCommand = ShellScope.current == nil ? "app likes like ID" : "like ID"
        console.output(
          LikesScreen.mutualsLines(page, likeCommand: likeCommand).joined(separator: "\n"))
      }
    }
  }
}
