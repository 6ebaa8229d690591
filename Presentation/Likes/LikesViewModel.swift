import Domain

/// The Liked You tab as a state machine: a page with its blur, the unblur countdown, and
/// optimistic likes and skips that leave the page at once and come back if the server
/// refuses.
@MainActor
public final class LikesViewModel {
  public struct State: Equatable, Sendable {
    public var page: LikesPage?
    public var unblurSecondsLeft: Int?
    /// The unread badge as it stood when the page was loaded (the footer's count).
    public var unread = 0
    /// The badge as it stands after the page was shown: 0 after page 1.
    public var badge = 0
    /// The page showed, but this machine could not keep it (a full disk): said once.
    public var storageWarning: UserFacingError?
    public var isLoading = false
    /// A mutual match to announce.
    public var banner: String?
    /// What the last like or skip did.
    public var notice: String?
    /// Whom the last like or skip that the server accepted was for.
    public var answered: Answer?
    public var error: UserFacingError?
  }

  /// A like back or a skip the server accepted.
  public struct Answer: Equatable, Sendable {
    public let id: String
    /// Nil while names are blurred, or for somebody never shown here.
    public let name: String?
    public let liked: Bool
    public let mutualMatch: Bool

    init(id: String, item: LikeItem?, liked: Bool, mutualMatch: Bool) {
      self.id = id
      name = item.flatMap { $0.isBlurred ? nil : $0.userName }
      self.liked = liked
      self.mutualMatch = mutualMatch
    }
  }

  public private(set) var state = State() {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  public struct Actions: Sendable {
    /// `ViewLikesPageUseCase.execute` in the app: the page, the unblur seconds left and the
    /// unread badge, in one read (the badge cleared by a look at the first page).
    public var viewPage: @Sendable (LikesPageRequest) async throws -> LikesPageView
    public var likeBack: @Sendable (String) async throws -> (mutualMatch: Bool, item: LikeItem)
    public var skip: @Sendable (String) async throws -> (id: String, item: LikeItem?)

    public init(
      viewPage: @escaping @Sendable (LikesPageRequest) async throws -> LikesPageView,
      likeBack: @escaping @Sendable (String) async throws -> (mutualMatch: Bool, item: LikeItem),
      skip: @escaping @Sendable (String) async throws -> (id: String, item: LikeItem?)
    ) {
      self.viewPage = viewPage
      self.likeBack = likeBack
      self.skip = skip
    }
  }

  private let actions: Actions

  public init(actions: Actions) {
    self.actions = actions
  }

  /// `shift`: how far the list moved since its first page was shown (`LikesPageRequest`).
  public func load(page: Int, batchSize: Int, refresh: Bool, shift: Int = 0) async {
    guard !state.isLoading else { return }
    state.isLoading = true
    do {
      let view = try await actions.viewPage(
        LikesPageRequest(page: page, batchSize: batchSize, refresh: refresh, shift: shift))
      var next = state
      next.page = view.page
      next.unblurSecondsLeft = view.unblurSecondsLeft
      next.unread = view.unread
      next.badge = view.badge
      next.storageWarning = view.storageTrouble.map(UserFacingError.describe)
      next.isLoading = false
      next.error = nil
      state = next
    } catch {
      var next = state
      next.isLoading = false
      next.error = UserFacingError(error)
      state = next
    }
  }

  public func likeBack(_ idOrPrefix: String) async {
    await respond(to: idOrPrefix) { [actions] in
      let outcome = try await actions.likeBack(idOrPrefix)
      let answer = Answer(
        id: outcome.item.id, item: outcome.item, liked: true, mutualMatch: outcome.mutualMatch)
      return outcome.mutualMatch
        ? (
          notice: nil,
          banner: "It's a match with \(outcome.item.userName)! They are in your mutuals now.",
          answer
        )
        : (notice: "Liked \(Self.shortID(outcome.item.id)).", banner: nil, answer)
    }
  }

  public func skip(_ idOrPrefix: String) async {
    await respond(to: idOrPrefix) { [actions] in
      let skipped = try await actions.skip(idOrPrefix)
      return (
        notice: "Skipped \(Self.shortID(skipped.id)).", banner: nil,
        Answer(id: skipped.id, item: skipped.item, liked: false, mutualMatch: false)
      )
    }
  }

  /// The first eight characters: how ids are shown, and the shortest prefix accepted.
  nonisolated public static func shortID(_ id: String) -> String {
    String(id.prefix(RespondToLikeUseCase.minimumPrefixLength))
  }

  private func respond(
    to idOrPrefix: String,
    _ request: () async throws -> (notice: String?, banner: String?, answer: Answer)
  ) async {
    // Optimistic: the card leaves the page before the server answers.
    let removed = removeFromPage(idOrPrefix)
    state.notice = nil
    state.banner = nil
    state.answered = nil
    state.error = nil
    do {
      let outcome = try await request()
      // One change: whoever follows the state sees the banner with the answer it is for.
      var next = state
      next.notice = outcome.notice
      next.banner = outcome.banner
      next.answered = outcome.answer
      state = next
    } catch {
      var next = state
      if let removed, var page = next.page {
        var items = page.items
        items.insert(removed.item, at: min(removed.index, items.count))
        page = LikesPage(
          number: page.number, batchSize: page.batchSize, items: items, nextCursor: page.nextCursor,
          source: page.source, lastPage: page.lastPage)
        next.page = page
        next.notice = "The card is back in the list."
      }
      next.error = UserFacingError(error)
      state = next
    }
  }

  private func removeFromPage(_ idOrPrefix: String) -> (item: LikeItem, index: Int)? {
    guard let page = state.page,
      let index = page.items.firstIndex(where: { $0.id.hasPrefix(idOrPrefix.lowercased()) })
    else { return nil }
    var items = page.items
    let item = items.remove(at: index)
    state.page = LikesPage(
      number: page.number, batchSize: page.batchSize, items: items, nextCursor: page.nextCursor,
      source: page.source, lastPage: page.lastPage)
    return (item, index)
  }
}
