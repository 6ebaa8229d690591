import Domain

/// One person's messages.
@MainActor
public final class UserMessagesViewModel {
  public enum State: Equatable, Sendable {
    case idle
    case loading(name: String)
    case loaded(UserMessages)
    case failed(UserFacingError)
  }

  public private(set) var state = State.idle {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  /// What the view model calls, made in the composition root.
  public struct Actions: Sendable {
    /// `LoadUserMessagesUseCase.execute(person:)` in the app.
    public var loadPerson: @Sendable (String) async throws -> UserMessages

    public init(
      loadPerson: @escaping @Sendable (String) async throws -> UserMessages
    ) {
      self.loadPerson = loadPerson
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  public func load(_ name: String) async {
    if case .loading = state { return }
    state = .loading(name: name)
    do {
      state = .loaded(try await actions.loadPerson(name))
    } catch {
      state = .failed(UserFacingError(error))
    }
  }
}
