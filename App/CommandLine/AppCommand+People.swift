import ArgumentParser
import Domain
import Foundation
import Presentation

extension AppCommand {
  struct People: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "people",
      abstract: "People to meet on this server: like them, pass them, block them.",
      discussion: """
        A like reaches them at once; when they like you too, it's a match, and you can write \
        to each other (`app messages send --to USERNAME`). A pass is never told. A block \
        ends any match, and you disappear for them.
        """,
      subcommands: [List.self, Like.self, Pass.self, Block.self],
      defaultSubcommand: List.self)
  }
}

extension AppCommand.People {
  struct List: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "One page of the people you may like, newest first.")

    @OptionGroup var options: GlobalOptions

    @Option(parsing: .unconditional, help: "The page, from 1 to \(LikesPageRequest.lastPage).")
    var page = 1

    @Option(parsing: .unconditional, help: "People per page, 1 to 100.")
    var batchSize = 10

    func validate() throws {
      guard (1...LikesPageRequest.lastPage).contains(page) else {
        throw ValidationError("--page must be from 1 to \(LikesPageRequest.lastPage).")
      }
      guard (1...100).contains(batchSize) else {
        throw ValidationError("--batch-size must be from 1 to 100.")
      }
    }

    func run(io: AppIO) async throws {
      try await PeopleFeature(options: options, io: io).showPage(page, batchSize: batchSize)
    }
  }

  struct Like: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "like", abstract: "Like somebody: a match when they liked you too.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run(io: AppIO) async throws {
      try await PeopleFeature(options: options, io: io).perform(.like, on: id)
    }
  }

  struct Pass: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "pass", abstract: "Pass somebody: they are not shown again, and never told.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run(io: AppIO) async throws {
      try await PeopleFeature(options: options, io: io).perform(.pass, on: id)
    }
  }

  struct Block: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "block",
      abstract: "Block somebody: any match ends, and you disappear for them.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run(io: AppIO) async throws {
      try await PeopleFeature(options: options, io: io).perform(.block, on: id)
    }
  }
}

extension AppCommand.Likes {
  struct Unmatch: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unmatch",
      abstract: "End a mutual match: for both of you, with your conversation.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their id, or a unique prefix of 8 or more characters.")
    var id: String

    func run(io: AppIO) async throws {
      try await PeopleFeature(options: options, io: io).perform(.unmatch, on: id)
    }
  }
}
