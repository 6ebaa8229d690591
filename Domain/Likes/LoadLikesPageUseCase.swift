import Foundation

/// One page of people who liked you: the cache first, then the network; `refresh` always
/// asks the network, and so does a cached page out of date. When the network is down, a
/// cached page still shows, marked offline, and out of date when it is.
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

  /// The last page of `batchSize` that holds anybody, for a page `beyond` found empty: the
  /// server's pages asked in halves between the two (a page past 999 asks ten), and the
  /// first one its cursor calls the last ends the search. 0 when nobody has liked the person;
  /// nil when the server could not say now (the empty page shows all the same).
  func lastPage(before beyond: Int, batchSize: Int) async -> Int? {
    // `holding` holds somebody (0: none known to); `empty` is known to be empty.
    var (holding, empty) = (0, beyond)
    while empty - holding > 1 {
      let middle = (holding + empty) / 2
      guard
        let fetched = try? await environment.access.perform({ [environment] token in
          try await environment.remote.fetchData(page: middle, batchSize: batchSize, token: token)
        })
      else { return nil }
      if fetched.data.isEmpty {
        empty = middle
      } else if fetched.nextCursor == nil {
        return middle
      } else {
        holding = middle
      }
    }
    return holding
  }

  /// The page's people and where they came from, before the blur is known.
  func people(_ request: LikesPageRequest) async throws -> PeopleOnAPage {
    var loading = Loading(request: request)
    if environment.unkept.pagesOutdated,
      let failure = try await environment.markCachedPagesOutOfDate()
    {
      // The cached pages are out of date and the cache cannot mark them: this run knows it.
      loading.trouble = failure
      loading.cacheOutOfDate = true
    }
    do {
      var people = try await placed(request, &loading)
      if people.users.isEmpty, request.page > 1, case .server = people.source {
        people.lastPage = await lastPage(before: request.page, batchSize: request.batchSize)
      }
      return people
    } catch let error as RemoteAPIError where error.isNetworkFailure && request.shift != 0 {
      // A moved list is cut from one or two server pages, and one of them is neither here
      // nor reachable: offline, the page shows as this machine cached it, out of date.
      guard
        let cached = try? await environment.cache.page(request.page, batchSize: request.batchSize)
      else { throw error }
      try await remember(cached.users, &loading)
      return PeopleOnAPage(
        number: request.page, batchSize: request.batchSize, users: cached.users,
        nextCursor: cached.nextCursor,
        source: .cache(fetchedAt: cached.fetchedAt, offline: true, outOfDate: true),
        storageTrouble: loading.trouble)
    }
  }

  /// The people in the request's places, from the server's pages that hold them.
  private func placed(_ request: LikesPageRequest, _ loading: inout Loading) async throws
    -> PeopleOnAPage
  {
    let size = request.batchSize
    let offset = max(0, (request.page - 1) * size + request.shift)
    // The server's pages that hold places offset+1 … offset+size: one, or two when the
    // list moved by other than a whole page.
    let first = offset / size + 1
    let within = offset % size
    let (head, headSource) = try await serverPage(first, &loading)
    var users = Array(head.users.dropFirst(within))
    var source = headSource
    var hasMore = head.nextCursor != nil
    if within > 0, head.nextCursor != nil {
      let (tail, tailSource) = try await serverPage(first + 1, &loading)
      users += tail.users.prefix(within)
      hasMore = tail.nextCursor != nil || tail.users.count > within
      source = Self.older(source, tailSource)
    }
    // Unmoved, the server's own cursor says where to go next, as the contract has it.
    let next = request.shift == 0 ? head.nextCursor : (hasMore ? request.page + 1 : nil)
    return PeopleOnAPage(
      number: request.page, batchSize: size, users: users, nextCursor: next, source: source,
      storageTrouble: loading.trouble)
  }

  /// What one page's loading has learnt so far, across the one or two server pages it needs.
  private struct Loading {
    let request: LikesPageRequest
    /// Why this machine's cache could not be used, the first time it could not.
    var trouble: LocalStorageError?
    /// Every cached page is out of date, whatever the cache says (it could not be marked).
    var cacheOutOfDate = false
    /// The network failure of a request already made: the server is not asked again for the
    /// same page, so a page of two halves never waits out two time limits.
    var networkFailure: RemoteAPIError?
  }

  /// The server's page `number` (of the request's size): the cache's, or the network's. The
  /// cache is this machine's copy, never the page's reason to fail: when it cannot be read
  /// or written (a full disk), the page comes from the server and `trouble` says why. When
  /// the server cannot be reached, a cached copy stands in, even one out of date, which the
  /// page then says.
  private func serverPage(_ number: Int, _ loading: inout Loading) async throws
    -> (CachedLikesPage, LikesPage.Source)
  {
    let (cache, batchSize) = (environment.cache, loading.request.batchSize)
    var cached: CachedLikesPage?
    try await Self.keep(&loading.trouble) {
      cached = try await cache.page(number, batchSize: batchSize)
    }
    let outOfDate = loading.cacheOutOfDate || cached?.isOutOfDate == true
    if let cached, !loading.request.refresh, !outOfDate {
      try await remember(cached.users, &loading)
      return (cached, .cache(fetchedAt: cached.fetchedAt, offline: false))
    }
    do {
      if let known = loading.networkFailure { throw known }
      let fetched = try await environment.access.perform { [environment] token in
        try await environment.remote.fetchData(page: number, batchSize: batchSize, token: token)
      }
      let fresh = CachedLikesPage(
        users: fetched.data, nextCursor: fetched.nextCursor, fetchedAt: environment.now())
      try await Self.keep(&loading.trouble) {
        try await cache.store(fresh, number: number, batchSize: batchSize)
      }
      try await remember(fresh.users, &loading)
      return (fresh, .server)
    } catch let error as RemoteAPIError where error.isNetworkFailure {
      loading.networkFailure = error
      guard let cached else { throw error }
      try await remember(cached.users, &loading)
      return (cached, .cache(fetchedAt: cached.fetchedAt, offline: true, outOfDate: outOfDate))
    }
  }

  /// Keeps who the page shows, so that their ids can be typed back.
  private func remember(_ users: [LikedUser], _ loading: inout Loading) async throws {
    let shownTrouble = try await environment.rememberShown(users)
    loading.trouble = loading.trouble ?? shownTrouble
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
    case (
      .cache(let first, let firstOffline, let firstOutOfDate),
      .cache(let second, let secondOffline, let secondOutOfDate)
    ):
      .cache(
        fetchedAt: min(first, second), offline: firstOffline || secondOffline,
        outOfDate: firstOutOfDate || secondOutOfDate)
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
  /// The last page that holds anybody, when this one is past the end.
  var lastPage: Int?

  func page(blurred: Bool) -> LikesPage {
    LikesPage(
      number: number, batchSize: batchSize,
      items: users.map { .likedYou($0, isBlurred: blurred) }, nextCursor: nextCursor,
      source: source, lastPage: lastPage)
  }
}
