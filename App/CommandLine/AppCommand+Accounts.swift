import ArgumentParser
import Domain
import Presentation

extension AppCommand {
  struct Accounts: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "accounts",
      abstract:
        "The accounts whose sessions this machine keeps for the server, and the current one.",
      discussion: """
        `app login` as another account adds its session beside the others. Each data \
        folder has its own current account, marked *: two folders are two people.
        """)

    @OptionGroup var options: GlobalOptions

    func run(io: AppIO) async throws {
      try await AccountsFeature.list(try await CommandContext(options: options, io: io))
    }
  }

  struct Switch: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "switch",
      abstract: "Make another account whose session is kept the current one, for this data folder.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The username, as `app accounts` lists it.")
    var username: String

    func run(io: AppIO) async throws {
      try await AccountsFeature.switchAccount(
        try await CommandContext(options: options, io: io), to: username)
    }
  }
}
