import Domain

/// Everybody's messages: loading, then sections by person, an empty state, or an error.
@MainActor
public final class MessagesViewModel {
  public enum State: Equatable, Sendable {
    case idle
    case loading
    /// People sorted by name, each with their messages (possibly none).
    case loaded([UserMessages])
    /// The server has no conversations at all.
    case empty
    case failed(UserFacingError)
  }

  public private(set) var state = State.idle {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  /// What the view model calls, made in the composition root.
  public struct Actions: Sendable {
    /// `LoadAllMessagesUseCase.execute` in the app.
    public var loadAll: @Sendable () async throws -> [UserMessages]

    public init(
      loadAll: @escaping @Sendable () async throws -> [UserMessages]
    ) {
      self.loadAll = loadAll
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  public func load() async {
    guard state != .loading else { return }
    state = .loading
    do {
      let people = try await actions.loadAll()
      state = people.isEmpty ? .empty : .loaded(people)
    } catch {
      state = .failed(UserFacingError(error))
    }
  }
}
