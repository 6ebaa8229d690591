import ArgumentParser
import Domain
import Presentation

extension AppCommand.Messages {
  struct Send: AsyncParsableCommand {
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

    func run() async throws {
      let text =
        message == "-" ? LineInput(console: Console(json: false)).readAllStandardInput() : message
      try await Self.send(to: to, subject: subject, text: text, options)
    }

    private struct SentDocument: Encodable {
      let sent: Bool
      let to: MessagesScreen.PersonDocument
    }

    @MainActor
    static func send(to recipient: String, subject: String, text: String, _ options: GlobalOptions)
      async throws
    {
      let context = try await CommandContext(options: options)
      let viewModel = context.root.composeMessageViewModel()
      await viewModel.send(.recipientChanged(recipient))
      await viewModel.send(.subjectChanged(subject))
      await viewModel.send(.textChanged(text))
      await context.console.withActivity("Sending") { await viewModel.send(.sendTapped) }
      switch viewModel.state.status {
      case .sent(let person):
        if context.console.json {
          JSONOutput.write(
            SentDocument(sent: true, to: MessagesScreen.document(person)), to: context.console)
        } else {
          context.console.message(MessagesScreen.sentNotice(to: person))
          context.console.output(MessagesScreen.text(person))
        }
      case .invalid(let sentences):
        throw context.console.fail(
          UserFacingError(
            code: "invalid_input", message: sentences.joined(separator: " "),
            remedy: .correctInput))
      case .failed(let error):
        throw context.console.fail(error)
      case .editing, .sending:
        preconditionFailure("sending always finishes")
      }
    }
  }
}
