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

  /// What the view model calls, made in the composition root.
  public struct Actions: Sendable {
    /// `LoadMutualsUseCase.execute` in the app.
    public var load: @Sendable () async throws -> LikesPage

    public init(
      load: @escaping @Sendable () async throws -> LikesPage
    ) {
      self.load = load
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
      state = .loaded(try await actions.load())
    } catch {
      state = .failed(UserFacingError(error))
    }
  }
}
