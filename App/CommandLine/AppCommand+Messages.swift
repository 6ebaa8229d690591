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
  struct List: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "Show everybody's messages, sorted by name, or one person's with --user.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Show only this person's messages (any name: spaces, quotes, any script).")
    var user: String?

    func validate() throws {
      try OptionChecks.notBlank(user, "--user")
    }

    func run(io: AppIO) async throws {
      try await Self.show(user: user, options, io: io)
    }

    @MainActor
    private static func show(user: String?, _ options: GlobalOptions, io: AppIO) async throws {
      let feature = MessagesFeature(try await CommandContext(options: options, io: io))
      if let user {
        try await feature.showPerson(user)
      } else {
        try await feature.showEverybody()
      }
    }
  }
}
