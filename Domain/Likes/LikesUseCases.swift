import Foundation

/// Everything the likes use cases share: the remote API, the cache, the unblur state, the
/// signed-in access and the current time.
public struct LikesEnvironment: Sendable {
  let remote: any LikesRemoteAPI
  let cache: any LikesCache
  let state: any NCStateStore
  let access: SignedInAccess
  let now: @Sendable () -> Date

  public init(
    remote: any LikesRemoteAPI, cache: any LikesCache, state: any NCStateStore,
    access: SignedInAccess, now: @escaping @Sendable () -> Date
  ) {
    self.remote = remote
    self.cache = cache
    self.state = state
    self.access = access
    self.now = now
  }

  func isBlurred() async throws -> Bool {
    !UnblurWindow.isOpen(endDate: try await state.unblurEndDate(), now: now())
  }
}

/// Which page of people who liked you to show, and how.
public struct LikesPageRequest: Equatable, Sendable {
  public var page: Int
  public var batchSize: Int
  /// Ask the server even when the cache has the page.
  public var refresh: Bool
  /// How far the list moved since its first page was shown: likes that arrived since push
  /// everybody along (+1 each), people answered since pull them back (-1 each). Page N of a
  /// list that moved by `shift` starts `shift` places further, so that paging on finds
  /// the next person seen, never one already shown and never one skipped.
  public var shift: Int

  public init(page: Int, batchSize: Int, refresh: Bool = false, shift: Int = 0) {
    self.page = page
    self.batchSize = batchSize
    self.refresh = refresh
    self.shift = shift
  }
}

/// One page of people who liked you: the cache first, then the network; `refresh` always
/// asks the network. When the network is down, a cached page still shows, marked offline.
public struct LoadLikesPageUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  public func execute(page number: Int, batchSize: Int, refresh: Bool) async throws -> LikesPage {
    try await execute(LikesPageRequest(page: number, batchSize: batchSize, refresh: refresh))
  }

  public func execute(_ request: LikesPageRequest) async throws -> LikesPage {
    let blurred = try await environment.isBlurred()
    return try await people(request).page(blurred: blurred)
  }

  /// The page's people and where they came from, before the blur is known.
  func people(_ request: LikesPageRequest) async throws -> PeopleOnAPage {
    let size = request.batchSize
    let offset = max(0, (request.page - 1) * size + request.shift)
    // The server's pages that hold places offset+1 … offset+size: one, or two when the
    // list moved by other than a whole page.
    let first = offset / size + 1
    let within = offset % size
    var trouble: LocalStorageError?
    let (head, headSource) = try await serverPage(first, request, trouble: &trouble)
    var users = Array(head.users.dropFirst(within))
    var source = headSource
    var hasMore = head.nextCursor != nil
    if within > 0, head.nextCursor != nil {
      let (tail, tailSource) = try await serverPage(first + 1, request, trouble: &trouble)
      users += tail.users.prefix(within)
      hasMore = tail.nextCursor != nil || tail.users.count > within
      source = Self.older(source, tailSource)
    }
    // Unmoved, the server's own cursor says where to go next, as the contract has it.
    let next = request.shift == 0 ? head.nextCursor : (hasMore ? request.page + 1 : nil)
    return PeopleOnAPage(
      number: request.page, batchSize: size, users: users, nextCursor: next, source: source,
      storageTrouble: trouble)
  }

  /// The server's page `number` (of the request's size): the cache's, or the network's. The
  /// cache is this machine's copy, never the page's reason to fail: when it cannot be read
  /// or written (a full disk), the page comes from the server and `trouble` says why.
  private func serverPage(
    _ number: Int, _ request: LikesPageRequest, trouble: inout LocalStorageError?
  ) async throws -> (CachedLikesPage, LikesPage.Source) {
    let (cache, batchSize) = (environment.cache, request.batchSize)
    var cached: CachedLikesPage?
    try await Self.keep(&trouble) { cached = try await cache.page(number, batchSize: batchSize) }
    if let cached, !request.refresh {
      try await Self.keep(&trouble) { try await cache.rememberShown(cached.users) }
      return (cached, .cache(fetchedAt: cached.fetchedAt, offline: false))
    }
    do {
      let fetched = try await environment.access.perform { [environment] token in
        try await environment.remote.fetchData(page: number, batchSize: batchSize, token: token)
      }
      let fresh = CachedLikesPage(
        users: fetched.data, nextCursor: fetched.nextCursor, fetchedAt: environment.now())
      try await Self.keep(&trouble) {
        try await cache.store(fresh, number: number, batchSize: batchSize)
        try await cache.rememberShown(fresh.users)
      }
      return (fresh, .server)
    } catch let error as RemoteAPIError where error.isNetworkFailure {
      guard let cached else { throw error }
      try await Self.keep(&trouble) { try await cache.rememberShown(cached.users) }
      return (cached, .cache(fetchedAt: cached.fetchedAt, offline: true))
    }
  }

  /// Runs a use of the cache that the page can do without: a storage failure is kept in
  /// `trouble` (the first one) instead of failing the page; anything else is thrown.
  private static func keep(
    _ trouble: inout LocalStorageError?, _ use: () async throws -> Void
  ) async throws {
    do {
      try await use()
    } catch let error as LocalStorageError {
      trouble = trouble ?? error
    }
  }

  /// Where a page made of two came from, as the less fresh of them says.
  private static func older(_ one: LikesPage.Source, _ other: LikesPage.Source)
    -> LikesPage.Source
  {
    switch (one, other) {
    case (.server, .server): .server
    case (.cache, .server): one
    case (.server, .cache): other
    case (.cache(let first, let firstOffline), .cache(let second, let secondOffline)):
      .cache(fetchedAt: min(first, second), offline: firstOffline || secondOffline)
    }
  }
}

/// A page's people before the blur is applied: the blur depends on the unblur window, read
/// once the page is in hand.
struct PeopleOnAPage {
  let number: Int
  let batchSize: Int
  let users: [LikedUser]
  let nextCursor: Int?
  let source: LikesPage.Source
  /// Why this machine's cache could not be used for the page, when it could not.
  let storageTrouble: LocalStorageError?

  func page(blurred: Bool) -> LikesPage {
    LikesPage(
      number: number, batchSize: batchSize,
      items: users.map { .likedYou($0, isBlurred: blurred) }, nextCursor: nextCursor,
      source: source)
  }
}

/// Mutual matches, newest first; the cached list stands in when the network is down.
public struct LoadMutualsUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  public func execute() async throws -> LikesPage {
    do {
      let users = try await environment.access.perform { [environment] token in
        try await environment.remote.fetchMutuals(token: token)
      }
      let fresh = CachedLikesPage(users: users, nextCursor: nil, fetchedAt: environment.now())
      try await environment.cache.storeMutuals(fresh)
      try await environment.cache.rememberShown(users)
      return Self.page(fresh, .server)
    } catch let error as RemoteAPIError where error.isNetworkFailure {
      guard let cached = try await environment.cache.mutuals() else { throw error }
      return Self.page(cached, .cache(fetchedAt: cached.fetchedAt, offline: true))
    }
  }

  private static func page(_ cached: CachedLikesPage, _ source: LikesPage.Source) -> LikesPage {
    LikesPage(
      number: 1, batchSize: max(cached.users.count, 1), items: cached.users.map(LikeItem.mutual),
      nextCursor: nil, source: source)
  }
}

/// Opens the unblur window for `UnblurWindow.length` from now and keeps its end.
public struct UnblurUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  /// The window's end.
  public func execute() async throws -> Date {
    // Only a signed-in person has likes to unblur.
    _ = try await environment.access.perform { _ in () }
    let end = UnblurWindow.endDate(startingAt: environment.now())
    try await environment.state.setUnblurEndDate(end)
    return end
  }

  /// Whole seconds left in the window, or nil when everything is blurred.
  public func secondsLeft() async throws -> Int? {
    UnblurWindow.secondsLeft(
      endDate: try await environment.state.unblurEndDate(), now: environment.now())
  }
}

/// The unread badge: raised by realtime likes, shown in the list's footer, cleared when
/// the first page (where new likes land) has been seen (`ViewLikesPageUseCase`).
public struct UnreadBadgeUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  public func count() async throws -> Int { try await environment.state.unreadCount() }
  /// A like arrived while watching and was shown: its id can be typed back, the badge goes
  /// up by one, and the cached pages go, since the new like now stands first on page 1 and
  /// pushes every other one along: the next page shown comes from the server, with it.
  public func newLikeArrived(_ user: LikedUser) async throws -> Int {
    try await environment.cache.rememberShown([user])
    try await environment.cache.invalidateLikes()
    return try await environment.state.addUnread(1)
  }

  /// The realtime watch missed a while (a gap, or a server whose events were reset): the
  /// cached pages may hold people who left and miss people who came, so they go, and the
  /// next page comes from the server.
  public func pagesOutdated() async throws {
    try await environment.cache.invalidateLikes()
  }
}

/// Likes back or skips somebody, by full id or a unique prefix of a cached like.
public struct RespondToLikeUseCase: Sendable {
  /// As git does with hashes: shorter prefixes collide too easily.
  public static let minimumPrefixLength = 8

  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  /// Likes back; the outcome says whether it is a mutual match.
  public func likeBack(_ idOrPrefix: String) async throws -> (mutualMatch: Bool, item: LikeItem) {
    let id = try await resolve(idOrPrefix)
    let outcome = try await environment.access.perform { [environment] token in
      try await environment.remote.like(id: id, token: token)
    }
    try await environment.cache.invalidateLikes()
    if outcome.mutualMatch {
      let cached = try await environment.cache.mutuals()
      let users = [outcome.item] + (cached?.users ?? []).filter { $0.id != outcome.item.id }
      try await environment.cache.storeMutuals(
        CachedLikesPage(
          users: users, nextCursor: nil, fetchedAt: cached?.fetchedAt ?? environment.now()))
    }
    return (
      outcome.mutualMatch,
      outcome.mutualMatch
        ? .mutual(outcome.item)
        : .likedYou(outcome.item, isBlurred: try await environment.isBlurred())
    )
  }

  /// Skips; returns the full id skipped, and the card as it was shown (nil for somebody
  /// never shown here, named by a full id).
  public func skip(_ idOrPrefix: String) async throws -> (id: String, item: LikeItem?) {
    let id = try await resolve(idOrPrefix)
    let shown = try await environment.cache.shownLikes(withIDPrefix: id).first
    try await environment.access.perform { [environment] token in
      try await environment.remote.skip(id: id, token: token)
    }
    try await environment.cache.invalidateLikes()
    guard let shown else { return (id, nil) }
    return (id, .likedYou(shown, isBlurred: try await environment.isBlurred()))
  }

  /// A full id (36 characters) as it is; a shorter one must be a unique prefix of somebody
  /// the person was shown.
  func resolve(_ idOrPrefix: String) async throws -> String {
    let prefix = idOrPrefix.lowercased()
    guard prefix.count >= Self.minimumPrefixLength else { throw LikesError.idTooShort(idOrPrefix) }
    if prefix.count == 36 { return prefix }
    let matches = try await environment.cache.shownLikes(withIDPrefix: prefix)
    let ids = Array(Set(matches.map(\.id))).sorted()
    switch ids.count {
    case 0: throw LikesError.unknownPerson(id: idOrPrefix)
    case 1: return ids[0]
    default: throw LikesError.ambiguousID(prefix: idOrPrefix, matches: ids)
    }
  }
}
