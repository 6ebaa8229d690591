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

  private let loadPerson: @Sendable (String) async throws -> UserMessages

  /// `loadPerson` is `LoadUserMessagesUseCase.execute(person:)` in the app.
  public init(loadPerson: @escaping @Sendable (String) async throws -> UserMessages) {
    self.loadPerson = loadPerson
  }

  public func load(_ name: String) async {
    if case .loading = state { return }
    state = .loading(name: name)
    do {
      state = .loaded(try await loadPerson(name))
    } catch {
      state = .failed(UserFacingError(error))
    }
  }
}
