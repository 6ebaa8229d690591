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

  private let sendDraft: @Sendable (MessageDraft) async throws -> UserMessages

  /// `sendDraft` is `SendMessageUseCase.execute` in the app.
  public init(send: @escaping @Sendable (MessageDraft) async throws -> UserMessages) {
    self.sendDraft = send
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
      issues: draft.issues.map(UserFacingError.describe), request: { try await sendDraft(draft) })
  }
}
