import Backend
import BackendBridge
import Data
import Domain
import Foundation
import Synchronization
import TestSupport

/// The HTTP client a test injects into the composition root: an in-memory embedded backend
/// the test also holds, with routes ("POST /vendor/register") made to fail as a transport
/// would, by throwing, at once. A 15-second time-out is then a failure the test sees without
/// waiting 15 s.
final class FaultInjectingHTTPClient: HTTPClient {
  let backend: EmbeddedBackend
  /// What the backend's clock says; tests move it on.
  let now: TestNow
  private let inner: EmbeddedBackendHTTPClient
  private let faults = Mutex<[String: RemoteAPIError]>([:])
  private let sent = Mutex<[String]>([])

  init() throws {
    now = TestNow(Date())
    backend = try TestBackend.make(now: now)
    inner = EmbeddedBackendHTTPClient(backend: backend)
  }

  /// Makes `route` ("GET /messages") throw `error` from now on.
  func fail(_ route: String, with error: RemoteAPIError) {
    faults.withLock { $0[route] = error }
  }

  /// Every route asked for, failed or not, in order.
  var routes: [String] { sent.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let route = "\(request.method) \(request.url.path)"
    sent.withLock { $0.append(route) }
    if let fault = faults.withLock({ $0[route] }) { throw fault }
    return try await inner.send(request)
  }
}
