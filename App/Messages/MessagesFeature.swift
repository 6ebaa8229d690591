import Domain
import Presentation

/// The messages screens' entry points, shared by `app messages …` and the shell: each shows
/// what it did on the context's console; a failure is reported there and thrown as its
/// exit code. The shell keeps one for as long as its home is open, and with it the three
/// screens' view models.
@MainActor
final class MessagesFeature {
  let context: CommandContext
  private var console: Console { context.console }
  private let everybody: MessagesViewModel
  private let person: UserMessagesViewModel
  private let compose: ComposeMessageViewModel

  init(_ context: CommandContext) {
    self.context = context
    everybody = context.root.messagesViewModel()
    person = context.root.userMessagesViewModel()
    compose = context.root.composeMessageViewModel()
  }

  /// Everybody's messages, sorted by name; returns the names listed (for the shell's Tab).
  @discardableResult
  func showEverybody() async throws -> [String] {
    let viewModel = everybody
    await console.withActivity("Loading messages") { await viewModel.load() }
    switch viewModel.state {
    case .loaded(let people):
      // Written a chunk at a time as it is made: everybody's messages can be tens of MB.
      let helper = CompositionRoot.messagesHelper
      if console.json {
        await MessagesScreen.writeJSON(people, helper: helper, to: console.outputPart(utf8:))
      } else {
        await MessagesScreen.writeText(people, helper: helper, to: console.outputPart(utf8:))
      }
      ProcessLifetime.keepUntilExit(viewModel, io: console.io)
      return people.map(\.name)
    case .empty:
      if console.json {
        await MessagesScreen.writeJSON([], to: console.outputPart(utf8:))
      } else {
        console.output("No messages.")
      }
      return []
    case .failed(let error):
      throw console.fail(error)
    case .idle, .loading:
      preconditionFailure("load() always finishes")
    }
  }

  /// One person's messages.
  func showPerson(_ name: String) async throws {
    let viewModel = person
    await console.withActivity("Loading messages") { await viewModel.load(name) }
    switch viewModel.state {
    case .loaded(let person):
      if console.json {
        console.outputPart(MessagesScreen.json(person))
      } else {
        console.output(MessagesScreen.text(person))
      }
    case .failed(let error):
      throw console.fail(error)
    case .idle, .loading:
      preconditionFailure("load(_:) always finishes")
    }
  }

  /// Sends a message, then shows the recipient's messages.
  func send(to recipient: String, subject: String, text: String) async throws {
    let viewModel = compose
    await viewModel.send(.recipientChanged(recipient))
    await viewModel.send(.subjectChanged(subject))
    await viewModel.send(.textChanged(text))
    await console.withActivity("Sending") { await viewModel.send(.sendTapped) }
    switch viewModel.state.status {
    case .succeeded(let person):
      if console.json {
        JSONOutput.write(
          MessagesScreen.SentDocument(to: MessagesScreen.document(person)), to: console)
      } else {
        console.message(MessagesScreen.sentNotice(to: person))
        console.output(MessagesScreen.text(person))
      }
    case .invalid(let sentences):
      throw console.fail(
        UserFacingError(
          code: "invalid_input", message: sentences.joined(separator: " "), remedy: .correctInput))
    case .failed(let error):
      throw console.fail(error)
    case .editing, .submitting:
      preconditionFailure("sending always finishes")
    }
  }
}
