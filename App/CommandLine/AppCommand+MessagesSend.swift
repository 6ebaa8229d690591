import ArgumentParser
import Domain
import Presentation

extension AppCommand.Messages {
  struct Send: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "send",
      abstract: "Send a message, then show the recipient's messages.",
      discussion: "An empty subject or message is refused before anything is sent.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Who the message is for.")
    var to: String

    @Option(help: "The subject.")
    var subject: String

    @Option(help: ArgumentHelp("The text; '-' reads it from standard input.", valueName: "text"))
    var message: String

    func validate() throws {
      try OptionChecks.notBlank(to, "--to")
      try OptionChecks.notBlank(subject, "--subject")
      try OptionChecks.notBlank(message, "--message")
    }

    func run(io: AppIO) async throws {
      let text =
        message == "-"
        ? LineInput(console: Console(json: false, io: io)).readAllStandardInput() : message
      try await Self.send(to: to, subject: subject, text: text, options, io: io)
    }

    @MainActor
    private static func send(
      to: String, subject: String, text: String, _ options: GlobalOptions, io: AppIO
    ) async throws {
      try await MessagesFeature(try await CommandContext(options: options, io: io)).send(
        to: to, subject: subject, text: text)
    }
  }
}
