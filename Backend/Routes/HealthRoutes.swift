import Contract
import Foundation

/// The operations of a served backend, for load balancers and metrics collectors: alive
/// (`/healthz`), ready with its database (`/readyz`), and what it counted (`/metrics`).
package struct HealthRoutes {
  package let backend: APIBackend

  /// Alive as soon as it listens, whatever the database does: `/readyz` says the rest.
  package static let alive = BackendHTTPResponse.json(
    200, APIAnswer.ServerStatus(status: APIAnswer.ServerStatus.alive))

  package func readiness() async -> BackendHTTPResponse {
    guard (try? await backend.store.answers()) == true else {
      return .error(503, "unavailable", "The database does not answer")
    }
    return .json(200, APIAnswer.ServerStatus(status: APIAnswer.ServerStatus.ready))
  }

  /// Prometheus's text format; a backend that keeps no metrics (in process) has none to show.
  package func metrics() -> BackendHTTPResponse { Self.metrics(backend.metrics) }

  package static func metrics(_ metrics: ServerMetrics) -> BackendHTTPResponse {
    guard let text = metrics.exposition() else {
      return .error(404, "not_found", "This backend keeps no metrics")
    }
    return BackendHTTPResponse(
      status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
      body: Data(text))
  }
}
