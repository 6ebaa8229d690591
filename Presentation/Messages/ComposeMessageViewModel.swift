import Domain

/// Writing a message: validation before any request, then sending, sent (with the
/// recipient's messages after it) or failed, keeping the draft for another try.
@MainActor
public final class ComposeMessageViewModel {
  public struct State: Equatable, Sendable {
    public var recipient = ""
    public var subject = ""
    public var text = ""
    /// Sent: the recipient's messages, the new one among them.
    public var status = FormStatus<UserMessages>.editing
  }

  public enum Action: Equatable, Sendable {
    case recipientChanged(String)
    case subjectChanged(String)
    case textChanged(String)
    case sendTapped
  }

  public private(set) var state = State() {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  /// What the view model calls, made in the composition root.
  public struct Actions: Sendable {
    /// `SendMessageUseCase.execute` in the app: the recipient's messages after the send.
    public var send: @Sendable (MessageDraft) async throws -> UserMessages

    public init(
      send: @escaping @Sendable (MessageDraft) async throws -> UserMessages
    ) {
      self.send = send
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  public func send(_ action: Action) async {
    switch action {
    case .recipientChanged(let recipient): state.recipient = recipient
    case .subjectChanged(let subject): state.subject = subject
    case .textChanged(let text): state.text = text
    case .sendTapped: await submit()
    }
  }

  private func submit() async {
    let draft = MessageDraft(recipient: state.recipient, subject: state.subject, text: state.text)
    await FormSubmission.submit(
      self, state: \.state, status: \.status,
      issues: draft.issues.map(UserFacingError.describe), request: { try await actions.send(draft) }
    )
  }
}
