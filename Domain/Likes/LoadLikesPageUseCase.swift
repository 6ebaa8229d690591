import Foundation

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
    var request = request
    var trouble: LocalStorageError?
    if environment.unkept.pagesOutdated, let failure = try await environment.dropCachedPages() {
      // The cached pages are out of date and the cache cannot drop them: the server's it is.
      trouble = failure
      request.refresh = true
    }
    let size = request.batchSize
    let offset = max(0, (request.page - 1) * size + request.shift)
    // The server's pages that hold places offset+1 … offset+size: one, or two when the
    // list moved by other than a whole page.
    let first = offset / size + 1
    let within = offset % size
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
      let shownTrouble = try await environment.rememberShown(cached.users)
      trouble = trouble ?? shownTrouble
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
      }
      let shownTrouble = try await environment.rememberShown(fresh.users)
      trouble = trouble ?? shownTrouble
      return (fresh, .server)
    } catch let error as RemoteAPIError where error.isNetworkFailure {
      guard let cached else { throw error }
      let shownTrouble = try await environment.rememberShown(cached.users)
      trouble = trouble ?? shownTrouble
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
