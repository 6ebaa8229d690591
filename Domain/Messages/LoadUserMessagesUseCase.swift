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
