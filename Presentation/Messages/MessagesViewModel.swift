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

  private let loadAll: @Sendable () async throws -> [UserMessages]

  /// `loadAll` is `LoadAllMessagesUseCase.execute` in the app.
  public init(loadAll: @escaping @Sendable () async throws -> [UserMessages]) {
    self.loadAll = loadAll
  }

  public func load() async {
    guard state != .loading else { return }
    state = .loading
    do {
      let people = try await loadAll()
      state = people.isEmpty ? .empty : .loaded(people)
    } catch {
      state = .failed(UserFacingError(error))
    }
  }
}
