import Domain

/// The Mutuals tab: the matches, never blurred, read-only.
@MainActor
public final class MutualsViewModel {
  public enum State: Equatable, Sendable {
    case idle
    case loading
    case loaded(LikesPage)
    case failed(UserFacingError)
  }

  public private(set) var state = State.idle {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  private let loadMutuals: @Sendable () async throws -> LikesPage

  /// `load` is `LoadMutualsUseCase.execute` in the app.
  public init(load: @escaping @Sendable () async throws -> LikesPage) {
    self.loadMutuals = load
  }

  public func load() async {
    guard state != .loading else { return }
    state = .loading
    do {
      state = .loaded(try await loadMutuals())
    } catch {
      state = .failed(UserFacingError(error))
    }
  }
}
