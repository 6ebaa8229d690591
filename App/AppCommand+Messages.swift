import ArgumentParser
import Domain
import Presentation

extension AppCommand {
  struct Messages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "messages",
      abstract: "Read and send messages.",
      subcommands: [List.self, Send.self],
      defaultSubcommand: List.self)
  }
}

extension AppCommand.Messages {
  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "Show everybody's messages, sorted by name, or one person's with --user.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Show only this person's messages (any name: spaces, quotes, any script).")
    var user: String?

    func validate() throws {
      try OptionChecks.notBlank(user, "--user")
    }

    func run() async throws {
      if let user {
        try await Self.showPerson(user, options)
      } else {
        try await Self.showEverybody(options)
      }
    }

    @MainActor
    static func showEverybody(_ options: GlobalOptions) async throws {
      let context = try await CommandContext(options: options)
      let viewModel = context.root.messagesViewModel()
      await context.console.withActivity("Loading messages") { await viewModel.load() }
      switch viewModel.state {
      case .loaded(let people):
        ShellScope.current?.home?.peopleShown(people.map(\.name))
        // Written a chunk at a time as it is made: everybody's messages can be tens of MB.
        if context.console.json {
          MessagesScreen.writeJSON(people, to: context.console.outputPart(utf8:))
        } else {
          MessagesScreen.writeText(people, to: context.console.outputPart(utf8:))
        }
        ProcessLifetime.keepUntilExit(viewModel, io: context.console.io)
      case .empty:
        if context.console.json {
          MessagesScreen.writeJSON([], to: context.console.outputPart(utf8:))
        } else {
          context.console.output("No messages.")
        }
      case .failed(let error):
        throw context.console.fail(error)
      case .idle, .loading:
        preconditionFailure("load() always finishes")
      }
    }

    @MainActor
    static func showPerson(_ name: String, _ options: GlobalOptions) async throws {
      let context = try await CommandContext(options: options)
      let viewModel = context.root.userMessagesViewModel()
      await context.console.withActivity("Loading messages") { await viewModel.load(name) }
      switch viewModel.state {
      case .loaded(let person):
        if context.console.json {
          context.console.outputPart(MessagesScreen.json(person))
        } else {
          context.console.output(MessagesScreen.text(person))
        }
      case .failed(let error):
        throw context.console.fail(error)
      case .idle, .loading:
        preconditionFailure("load(_:) always finishes")
      }
    }
  }
}
