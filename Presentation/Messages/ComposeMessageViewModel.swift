import Domain

/// Writing a message: validation before any request, then sending, sent (with the
/// recipient's messages after it) or failed, keeping the draft for another try.
@MainActor
public final class ComposeMessageViewModel {
  public enum Status: Equatable, Sendable {
    case editing
    /// One sentence per missing part; nothing was sent.
    case invalid([String])
    case sending
    case sent(UserMessages)
    case failed(UserFacingError)
  }

  public struct State: Equatable, Sendable {
    public var recipient = ""
    public var subject = ""
    public var text = ""
    public var status = Status.editing
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
    guard state.status != .sending else { return }
    let draft = MessageDraft(recipient: state.recipient, subject: state.subject, text: state.text)
    guard draft.issues.isEmpty else {
      state.status = .invalid(draft.issues.map(UserFacingError.describe))
      return
    }
    state.status = .sending
    do {
      state.status = .sent(try await sendDraft(draft))
    } catch {
      state.status = .failed(UserFacingError(error))
    }
  }
}
