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
  ) async throws -> EmbeddedBackend {
    let environment = io.environment
    let rounds =
      try CompositionRoot.passwordRounds(environment) ?? EmbeddedBackend.defaultPasswordRounds
    if let store {
      return try await EmbeddedBackend.open(
        .postgres(store), now: { Date() }, randomBytes: CompositionRoot.systemRandomBytes,
        clock: ContinuousClock(), passwordRounds: rounds,
        likeInterval: CompositionRoot.demoLikeInterval(environment)
          ?? EmbeddedBackend.defaultLikeInterval,
        pushFaults: try CompositionRoot.pushFaults(environment), metrics: metrics)
    }
    let folder = try DataFolder.prepare(
      DataFolder.locate(option: dataDir, environment: environment))
    return try await EmbeddedBackend.open(
      .file(folder.file(CompositionRoot.backendFileName)), now: { Date() },
      randomBytes: CompositionRoot.systemRandomBytes, clock: ContinuousClock(),
      passwordRounds: rounds,
      likeInterval: CompositionRoot.demoLikeInterval(environment)
        ?? EmbeddedBackend.defaultLikeInterval,
      pushFaults: try CompositionRoot.pushFaults(environment), metrics: metrics)
  }

}

/// The backend `app serve` answers with, opened once the port is bound: a port in use is
/// reported at once, not after the seconds a new database takes to seed. A request that
/// arrives meanwhile waits for the opening (nobody knows the URL before it is printed,
/// which happens after).
final class BackendBehindServer: Sendable {
  private let opening = Mutex<Task<EmbeddedBackend, any Error>?>(nil)
  /// What `GET /metrics` shows, in Prometheus's text format.
  private let registry: PrometheusCollectorRegistry

  init(registry: PrometheusCollectorRegistry) {
    self.registry = registry
  }

  /// Opens the backend; throws what opening it threw.
  func open(_ make: @escaping @Sendable () async throws -> EmbeddedBackend) async throws {
    let task = Task { try await make() }
    opening.withLock { $0 = task }
    _ = try await task.value
  }

  func handle(_ request: BackendHTTPRequest) async -> BackendHTTPResponse {
    // Alive as soon as it listens, whatever the database does: `/readyz` says the rest.
    if request.method == "GET", request.pathSegments == ["healthz"] {
      return BackendHTTPResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"status":"alive"}"#.utf8))
    }
    if request.method == "GET", request.pathSegments == ["metrics"] {
      return BackendHTTPResponse(
        status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
        body: Data(registry.emitToBuffer()))
    }
    guard let task = opening.withLock({ $0 }), let backend = try? await task.value else {
      return BackendHTTPResponse(
        status: 503, headers: ["Content-Type": "application/json", "Retry-After": "1"],
        body: Data(#"{"error":"unavailable","error_description":"The server is starting"}"#.utf8))
    }
    return await backend.handle(request)
  }
}
