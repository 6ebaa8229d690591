import Foundation

/// `GET /readyz`: whether this backend can answer, its database included, for a load
/// balancer or an orchestrator. (`GET /healthz`, alive, is answered by the server itself,
/// even before the backend has opened.)
struct HealthRoutes: BackendRoutes {
  let backend: EmbeddedBackend

  func respond(to request: BackendHTTPRequest) async throws -> BackendHTTPResponse? {
    guard request.method == "GET", request.pathSegments == ["readyz"] else { return nil }
    guard (try? await backend.store.answers()) == true else {
      return .error(503, "unavailable", "The database does not answer")
    }
    return .json(200, ["status": "ready"])
  }
}
