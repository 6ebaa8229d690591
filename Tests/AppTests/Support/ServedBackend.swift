import Data
import Foundation
import Synchronization
import TestSupport
import Testing

/// The embedded backend served over real HTTP on loopback, under a path prefix, with
/// answers a test can override per route ("GET /me" → a 500 page): a server the app only
/// knows by its URL, as it would know any other.
final class ServedBackend: Sendable {
  let server: LoopbackHTTPServer
  let backend: EmbeddedBackend
  private let overrides: Overrides

  static let prefix = ["api", "v1"]

  init() throws {
    let backend = try TestBackend.make()
    let overrides = Overrides()
    self.backend = backend
    self.overrides = overrides
    server = try LoopbackHTTPServer { request in
      guard request.pathSegments.starts(with: Self.prefix) else {
        return BackendHTTPResponse(status: 404, body: Data("<html>not here</html>".utf8))
      }
      let inner = BackendHTTPRequest(
        method: request.method,
        pathSegments: Array(request.pathSegments.dropFirst(Self.prefix.count)),
        query: request.query, headers: request.headers, body: request.body)
      if let override = overrides.routes.withLock({ $0["\(inner.method) \(inner.path)"] }) {
        return override
      }
      return await backend.handle(inner)
    }
  }

  /// The URL to pass as `--api-url`, with its path prefix; also the keyring's `server`.
  var apiURL: String { "http://127.0.0.1:\(server.port)/api/v1" }

  /// Makes `route` ("GET /me") answer `status` with `body` from now on.
  func answer(_ route: String, status: Int, body: String, contentType: String = "application/json")
  {
    overrides.routes.withLock {
      $0[route] = BackendHTTPResponse(
        status: status, headers: ["Content-Type": contentType], body: Data(body.utf8))
    }
  }

  /// The routes the app asked for, below the prefix.
  var requests: [String] {
    server.requests.map { $0.replacingOccurrences(of: " /api/v1/", with: " /") }
  }

  func stop() { server.stop() }
}

private final class Overrides: Sendable {
  let routes = Mutex<[String: BackendHTTPResponse]>([:])
}

extension AppRunner {
  /// Signs the demo account in on `served`, the start of most session scenarios.
  func signInDemo(on served: ServedBackend) async throws {
    let result = try await run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"],
      stdin: "demo-password")
    #expect(result.status == 0, "signing in failed: \(result.stderr)")
  }
}
