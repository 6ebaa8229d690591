import Domain
import Presentation

/// The messages screens' view models, over the root's repository and signed-in access.
/// Commands get them from here and never name a use case.
extension CompositionRoot {
  @MainActor
  func messagesViewModel() -> MessagesViewModel {
    MessagesViewModel(
      actions: .init(
        loadAll: LoadAllMessagesUseCase(repository: messagesRepository, access: signedInAccess)
          .execute))
  }

  @MainActor
  func userMessagesViewModel() -> UserMessagesViewModel {
    UserMessagesViewModel(
      actions: .init(
        loadPerson: LoadUserMessagesUseCase(
          repository: messagesRepository, access: signedInAccess
        ).execute(person:)))
  }

  @MainActor
  func composeMessageViewModel() -> ComposeMessageViewModel {
    ComposeMessageViewModel(
      actions: .init(
        send: SendMessageUseCase(
          repository: messagesRepository, access: signedInAccess,
          wasMatch: { [self] name in await wasMatch(named: name) }
        ).execute))
  }

  /// Whether this device's cached mutuals name that person: asked only once a send has been
  /// refused, so the likes cache is opened then, and never created for it.
  private func wasMatch(named name: String) async -> Bool {
    guard case .success((let database, _))? = await openExistingAppDatabase(notice: { _ in }),
      let username = try? await sessionStore.signedInUsername()
    else { return false }
    return await likesEnvironment(database: database, username: username).wasMatch(named: name)
  }
}
