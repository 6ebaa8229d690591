import Foundation

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
      do {
        try await environment.cache.storeMutuals(fresh)
      } catch is LocalStorageError {
        // A full disk: the list shows all the same; the copy that stands in offline is older.
      }
      _ = try await environment.rememberShown(users)
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
