import Backend
import Foundation
import Prometheus
import Synchronization

/// What `app serve` is made of: the backend on the data folder's database, as the embedded
/// default opens it, or on a PostgreSQL database that other instances share.
enum ServerComposition {
  /// The PostgreSQL store `--database-url` (or `APP_DATABASE_URL`) names, not yet connected:
  /// its services run in the server's group. Nil for the SQLite file.
  static func postgresStore(
    url: String?, environment: [String: String], poolSize: Int, notifications: Bool
  ) throws -> PostgresBackendStore? {
    guard let url = url ?? environment["APP_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 })
    else { return nil }
    return try PostgresBackendStore(
      location: PostgresLocation(url: url, environment: environment), poolSize: poolSize,
      notifications: notifications)
  }

  static func backend(
    store: PostgresBackendStore?, dataDir: String?, io: AppIO, metrics: ServerMetrics
  ) async throws -> APIBackend {
    let environment = io.environment
    let rounds =
      try CompositionRoot.passwordRounds(environment) ?? APIBackend.defaultPasswordRounds
    if let store {
      return try await APIBackend.open(
        .postgres(store), now: { Date() }, randomBytes: CompositionRoot.systemRandomBytes,
        clock: ContinuousClock(), passwordRounds: rounds,
        likeInterval: CompositionRoot.demoLikeInterval(environment)
          ?? APIBackend.defaultLikeInterval,
        pushFaults: try CompositionRoot.pushFaults(environment), metrics: metrics)
    }
    let folder = try DataFolder.prepare(
      DataFolder.locate(option: dataDir, environment: environment))
    return try await APIBackend.open(
      .file(folder.file(CompositionRoot.backendFileName)), now: { Date() },
      randomBytes: CompositionRoot.systemRandomBytes, clock: ContinuousClock(),
      passwordRounds: rounds,
      likeInterval: CompositionRoot.demoLikeInterval(environment)
        ?? APIBackend.defaultLikeInterval,
      pushFaults: try CompositionRoot.pushFaults(environment), metrics: metrics)
  }

}
