import ArgumentParser
import Domain
import Foundation
import Presentation

extension AppCommand {
  struct Likes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "likes",
      abstract: "People who liked you, and your mutual matches.",
      subcommands: [
        List.self, Unblur.self, Like.self, Skip.self, Mutuals.self, Unmatch.self, Watch.self,
      ],
      defaultSubcommand: List.self)
  }
}

extension AppCommand.Likes {
  struct List: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract:
        "One page of people who liked you: from the cache when it has the page, else the server.",
      discussion:
        "Names stay blurred unless `app likes unblur` opened a window. Exit 4 when signed out.")

    @OptionGroup var options: GlobalOptions

    // `.unconditional`: `--page -1` is a page number to refuse, not a missing value.
    @Option(parsing: .unconditional, help: "The page, from 1 to \(LikesPageRequest.lastPage).")
    var page = 1

    @Option(parsing: .unconditional, help: "Likes per page, 1 to 100.")
    var batchSize = 10

    @Flag(help: "Ask the server even when the cache has the page.")
    var refresh = false

    func validate() throws {
      guard (1...LikesPageRequest.lastPage).contains(page) else {
        throw ValidationError("--page must be from 1 to \(LikesPageRequest.lastPage).")
      }
      guard (1...100).contains(batchSize) else {
        throw ValidationError("--batch-size must be from 1 to 100.")
      }
    }

    func run(io: AppIO) async throws {
      try await LikesFeature(options: options, io: io).showPage(
        page, batchSize: batchSize, refresh: refresh)
    }
  }

  struct Unblur: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unblur",
      abstract: "Show the names of people who liked you for \(Int(UnblurWindow.length)) seconds.",
      discussion:
        "The window's end is kept, so every run until then shows names, and the first run after it blurs them again."
    )

    @OptionGroup var options: GlobalOptions

    func run(io: AppIO) async throws {
      try await LikesFeature(options: options, io: io).unblur()
    }
  }

  struct Like: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "like",
      abstract: "Like somebody back: a mutual match, who then moves to your mutuals.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run(io: AppIO) async throws {
      try await LikesFeature(options: options, io: io).respond(to: id, liking: true)
    }
  }

  struct Skip: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "skip", abstract: "Skip somebody: they leave the list.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run(io: AppIO) async throws {
      try await LikesFeature(options: options, io: io).respond(to: id, liking: false)
    }
  }

  struct Mutuals: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "mutuals", abstract: "Your mutual matches, newest first.")

    @OptionGroup var options: GlobalOptions

    func run(io: AppIO) async throws {
      try await LikesFeature(options: options, io: io).showMutuals()
    }
  }
}

extension LikesFeature {
  /// The feature for one command of the command line.
  convenience init(options: GlobalOptions, io: AppIO, jsonLines: Bool = false) async throws {
    self.init(try await LikesComposition(options: options, io: io, jsonLines: jsonLines))
  }
}
