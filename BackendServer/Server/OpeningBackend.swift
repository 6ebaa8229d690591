import Backend
import Contract
import Foundation
import ServiceLifecycle
import Synchronization

/// The backend a server answers with, opened as a service beside the listening socket: a
/// port in use is reported at once, not after the seconds a new database takes to seed.
/// Meanwhile `/healthz` and `/metrics` answer, and every other request waits for the opening
/// (or is a `503` that says to come back in a second, before it has begun).
public final class OpeningBackend: Service, Sendable {
  private let make: @Sendable () async throws -> APIBackend
  private let opening = Mutex<Task<APIBackend, any Error>?>(nil)
  private let metrics: ServerMetrics
  /// Whether the service opens the backend itself when it runs, or waits for `opened()` to
  /// be asked first (`APIServerApplication.start()`, once the port is bound).
  private let opensWhenRun = Atomic(true)
  private let asked = AsyncStream<Void>.makeStream()

  /// `metrics`: the ones the backend will be opened with, shown before it is.
  init(metrics: ServerMetrics, make: @escaping @Sendable () async throws -> APIBackend) {
    self.metrics = metrics
    self.make = make
  }

  /// Opens the backend, then holds it until the server group shuts down gracefully, and
  /// closes it: the group stops the server first, so every request has been answered. A
  /// group cancelled instead (a service failed) is ending its process; the close, which
  /// waits for requests under way, is left out. A failure to open ends the group, and the
  /// server with it.
  public func run() async throws {
    if !opensWhenRun.load(ordering: .acquiring) {
      // Nothing is made (a database file, a schema) before the port is bound: a server that
      // cannot listen leaves nothing behind.
      for await _ in asked.stream { break }
      try Task.checkCancellation()
    }
    let backend = try await opened()
    do {
      try await gracefulShutdown()
    } catch {
      return
    }
    await backend.close()
  }

  /// The backend, once open: starts the opening if nothing has, and throws what it threw.
  /// Whoever asks first starts it; everyone waits for the same one.
  public func opened() async throws -> APIBackend {
    let task = opening.withLock { task in
      if let task { return task }
      let started = Task { [make] in try await make() }
      task = started
      return started
    }
    asked.continuation.finish()
    return try await task.value
  }

  /// From now on the service opens the backend only once `opened()` is asked.
  func waitForTheFirstAsking() {
    opensWhenRun.store(false, ordering: .releasing)
  }

  @Sendable public func handle(_ request: BackendHTTPRequest) async -> BackendHTTPResponse {
    switch request.operation {
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
