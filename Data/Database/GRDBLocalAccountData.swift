import Domain

/// An account's rows in the app's database: every cached likes table and its unblur state.
/// The database is opened only when there is something to delete, so that signing out of a
/// machine whose cache is broken still signs out.
public struct GRDBLocalAccountData: LocalAccountData {
  private let openDatabase: @Sendable () async throws -> AppDatabase
  private let accountKey: @Sendable (String) -> String

  /// `accountKey` turns a username into the cache's account key (server and username).
  public init(
    openDatabase: @escaping @Sendable () async throws -> AppDatabase,
    accountKey: @escaping @Sendable (String) -> String
  ) {
    self.openDatabase = openDatabase
    self.accountKey = accountKey
  }

  public func deleteAll(of username: String) async throws {
    let database = try await openDatabase()
    try await GRDBLikesCache(database: database, account: accountKey(username)).deleteAll()
  }
}
