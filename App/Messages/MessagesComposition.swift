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
        send: SendMessageUseCase(repository: messagesRepository, access: signedInAccess).execute))
  }
}
