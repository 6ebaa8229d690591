import BackendServer
import Foundation

/// `app serve`'s PostgreSQL database, from its flag or the environment.
enum ServerComposition {
  /// A `--database-url` (or `APP_DATABASE_URL`) that cannot be used, and why.
  struct InvalidDatabaseURL: Error {
    let cause: any Error
  }

  /// The PostgreSQL store `--database-url` (or `APP_DATABASE_URL`) names, not yet connected:
  /// its services run in the server's group. Nil for the SQLite file.
  static func postgresStore(
    url: String?, environment: [String: String], poolSize: Int, notifications: Bool
  ) throws(InvalidDatabaseURL) -> PostgresBackendStore? {
    guard let url = url ?? environment["APP_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 })
    else { return nil }
    do {
      return try PostgresBackendStore(
        location: PostgresLocation(url: url, environment: environment), poolSize: poolSize,
        notifications: notifications)
    } catch {
      throw InvalidDatabaseURL(cause: error)
    }
  }
}
