import Domain

/// People to meet: a page of them, and what the person does to one (like, pass, block) or
/// to a match (unmatch). Each load or action ends in `state`, a failure included.
@MainActor
public final class PeopleViewModel {
  public struct State: Equatable, Sendable {
    public var page: PeoplePage?
    /// The last action's outcome, and its announcement.
    public var outcome: PersonActionOutcome?
    public var error: UserFacingError?
    public var isWorking = false
  }

  public private(set) var state = State() {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  /// What the view model calls, made in the composition root (`MeetPeopleUseCase`).
  public struct Actions: Sendable {
    public var page: @Sendable (_ number: Int, _ batchSize: Int) async throws -> PeoplePage
    public var perform:
      @Sendable (PersonAction, _ idOrPrefix: String) async throws -> PersonActionOutcome

    public init(
      page: @escaping @Sendable (Int, Int) async throws -> PeoplePage,
      perform: @escaping @Sendable (PersonAction, String) async throws -> PersonActionOutcome
    ) {
      self.page = page
      self.perform = perform
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  public func load(page number: Int, batchSize: Int) async {
    await working {
      let page = try await actions.page(number, batchSize)
      state.page = page
    }
  }

  public func perform(_ action: PersonAction, on idOrPrefix: String) async {
    state.outcome = nil
    await working {
      state.outcome = try await actions.perform(action, idOrPrefix)
    }
  }

  private func working(_ body: () async throws -> Void) async {
    state.isWorking = true
    state.error = nil
    do {
      try await body()
    } catch {
      state.error = UserFacingError(error)
    }
    state.isWorking = false
  }
}
