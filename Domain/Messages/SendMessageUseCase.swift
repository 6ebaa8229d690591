/// Sends a message, refusing an incomplete draft before any request.
public struct SendMessageUseCase: Sendable {
  private let repository: any MessagesRepository
  private let access: SignedInAccess

  public init(repository: any MessagesRepository, access: SignedInAccess) {
    self.repository = repository
    self.access = access
  }

  public func execute(_ draft: MessageDraft) async throws -> UserMessages {
    let issues = draft.issues
    guard issues.isEmpty else { throw MessagesError.invalidDraft(issues) }
    return try await access.perform { [repository] token in
      try await repository.send(draft, with: token)
    }
  }
}
