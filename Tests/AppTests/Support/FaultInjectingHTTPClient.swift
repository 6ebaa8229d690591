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
  let backend: APIBackend
  /// What the backend's clock says; tests move it on.
  let now: TestNow
  private let inner: EmbeddedBackendHTTPClient
  private let faults = Mutex<[String: (error: RemoteAPIError, times: Int?)]>([:])
  private let sent = Mutex<[String]>([])

  init() throws {
    now = TestNow(Date())
    backend = try TestBackend.make(now: now)
    inner = EmbeddedBackendHTTPClient(backend: backend)
  }

  /// Makes `route` ("GET /messages") throw `error` from now on, or only `times` times.
  func fail(_ route: String, with error: RemoteAPIError, times: Int? = nil) {
    faults.withLock { $0[route] = (error, times) }
  }

  /// Every route asked for, failed or not, in order.
  var routes: [String] { sent.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let route = "\(request.method) \(request.url.path)"
    sent.withLock { $0.append(route) }
    let fault = faults.withLock { faults -> RemoteAPIError? in
      guard let fault = faults[route] else { return nil }
      if let times = fault.times {
        faults[route] = times > 1 ? (fault.error, times - 1) : nil
      }
      return fault.error
    }
    if let fault { throw fault }
    return try await inner.send(request)
  }
}
