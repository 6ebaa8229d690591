/// Sends a message, refusing an incomplete draft before any request.
public struct SendMessageUseCase: Sendable {
  private let repository: any MessagesRepository
  private let access: SignedInAccess
  private let wasMatch: @Sendable (_ name: String) async -> Bool

  /// `wasMatch` says whether this device last knew the person of that name as a match
  /// (the cached mutuals): a refusal to such a person means they have just unmatched.
  public init(
    repository: any MessagesRepository, access: SignedInAccess,
    wasMatch: @escaping @Sendable (_ name: String) async -> Bool = { _ in false }
  ) {
    self.repository = repository
    self.access = access
    self.wasMatch = wasMatch
  }

  public func execute(_ draft: MessageDraft) async throws -> UserMessages {
    let issues = draft.issues
    guard issues.isEmpty else { throw MessagesError.invalidDraft(issues) }
    do {
      return try await access.perform { [repository] token in
        try await repository.send(draft, with: token)
      }
    } catch MessagesError.notAMatch(let name) {
      throw await wasMatch(name) ? MessagesError.unmatchedYou(name) : .notAMatch(name)
    }
  }
}
