import Domain
import Presentation
import Synchronization
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct MessagesViewModelsTests {
  @Test func messages_goFromLoadingToSections() async {
    let people = [UserMessages(name: "bob", messages: [Message(subject: "s", text: "t")])]
    let sut = MessagesViewModel(actions: .init(loadAll: { people }))
    var states: [MessagesViewModel.State] = []
    sut.onStateChange = { states.append($0) }

    await sut.load()

    #expect(states == [.loading, .loaded(people)])
  }

  @Test func messages_sayEmpty_forNobody() async {
    let sut = MessagesViewModel(actions: .init(loadAll: { [] }))
    await sut.load()
    #expect(sut.state == .empty)
  }

  @Test func messages_showTheError_andSignedOutAsksForSignIn() async {
    let sut = MessagesViewModel(
      actions: .init(loadAll: { throw SessionError.expired(username: "bob") }))
    await sut.load()
    guard case .failed(let error) = sut.state else {
      Issue.record("expected failed, got \(sut.state)")
      return
    }
    #expect(error.code == "session_expired")
    #expect(error.signingInHelps)
  }

  @Test func userMessages_loadOne_orSayNoSuchPerson() async {
    let sut = UserMessagesViewModel(
      actions: .init(loadPerson: { name in
        guard name == "bob" else { throw MessagesError.noSuchPerson(name) }
        return UserMessages(name: "bob", messages: [])
      }))

    await sut.load("bob")
    #expect(sut.state == .loaded(UserMessages(name: "bob", messages: [])))
    await sut.load("ghost")
    #expect(sut.state == .failed(UserFacingError(MessagesError.noSuchPerson("ghost"))))
  }

  @Test func compose_validatesBeforeSending() async {
    let sent = Mutex<[MessageDraft]>([])
    let sut = ComposeMessageViewModel(
      actions: .init(send: { draft in
        sent.withLock { $0.append(draft) }
        return UserMessages(name: draft.recipient, messages: [])
      }))

    await sut.send(.recipientChanged("bob"))
    await sut.send(.sendTapped)

    #expect(sut.state.status == .invalid(["Enter a subject.", "Enter a message."]))
    #expect(sent.withLock { $0 }.isEmpty)
  }

  @Test func compose_sendsThenShowsTheRecipientsMessages() async {
    let after = UserMessages(name: "bob", messages: [Message(subject: "s", text: "t")])
    let sut = ComposeMessageViewModel(actions: .init(send: { _ in after }))
    var statuses: [FormStatus<UserMessages>] = []
    sut.onStateChange = { statuses.append($0.status) }

    await sut.send(.recipientChanged("bob"))
    await sut.send(.subjectChanged("s"))
    await sut.send(.textChanged("t"))
    await sut.send(.sendTapped)

    #expect(statuses.suffix(2) == [.submitting, .succeeded(after)])
  }

  @Test func compose_keepsTheDraft_whenSendingFails() async {
    let down = RemoteAPIError.unreachable(reason: "down")
    let sut = ComposeMessageViewModel(actions: .init(send: { _ in throw down }))

    await sut.send(.recipientChanged("bob"))
    await sut.send(.subjectChanged("s"))
    await sut.send(.textChanged("t"))
    await sut.send(.sendTapped)

    #expect(
      sut.state.status == .failed(UserFacingError(RemoteAPIError.unreachable(reason: "down"))))
    #expect(sut.state.text == "t")
  }
}
