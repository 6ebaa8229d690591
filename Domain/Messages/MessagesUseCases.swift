/// Loads everybody's messages, sorted by name, for the signed-in user.
public struct LoadAllMessagesUseCase: Sendable {
  private let repository: any MessagesRepository
  private let access: SignedInAccess

  public init(repository: any MessagesRepository, access: SignedInAccess) {
    self.repository = repository
    self.access = access
  }

  public func execute() async throws -> [UserMessages] {
    try await access.perform { [repository] token in
      try await repository.loadAll(with: token).sortedByName()
    }
  }
}

/// Loads one person's messages for the signed-in user.
public struct LoadUserMessagesUseCase: Sendable {
  private let repository: any MessagesRepository
  private let access: SignedInAccess

  public init(repository: any MessagesRepository, access: SignedInAccess) {
    self.repository = repository
    self.access = access
  }

  public func execute(person name: String) async throws -> UserMessages {
    try await access.perform { [repository] token in
      try await repository.load(person: name, with: token)
    }
  }
}

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
