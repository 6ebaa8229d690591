import Contract
import Foundation
import Synchronization

/// The backend a server answers with, opened once the port is bound: a port in use is
/// reported at once, not after the seconds a new database takes to seed. Meanwhile
/// `/healthz` and `/metrics` answer, and every other request is a `503` that says to come back
/// in a second (nobody knows the URL before it is printed, which happens after).
public final class OpeningBackend: Sendable {
  private let opening = Mutex<Task<APIBackend, any Error>?>(nil)
  private let metrics: ServerMetrics

  /// `metrics`: the ones the backend will be opened with, shown before it is.
  public init(metrics: ServerMetrics) {
    self.metrics = metrics
  }

  /// Opens the backend; throws what opening it threw.
  public func open(_ make: @escaping @Sendable () async throws -> APIBackend) async throws {
    let task = Task { try await make() }
    opening.withLock { $0 = task }
    _ = try await task.value
  }

  public func handle(_ request: BackendHTTPRequest) async -> BackendHTTPResponse {
    switch APIOperation.of(method: request.method, pathSegments: request.pathSegments) {
    case .health: return HealthRoutes.alive
    case .metrics: return HealthRoutes.metrics(metrics)
    default:
      guard let backend = try? await opening.withLock({ $0 })?.value else {
        return .error(503, "unavailable", "The server is starting", retryAfter: 1)
      }
      return await backend.handle(request)
    }
  }
}
