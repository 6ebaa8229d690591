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
