import Backend
import Data
import Foundation

/// An `HTTPClient` that hands each request to the in-process `EmbeddedBackend` and returns
/// its status and bytes as an `HTTPResponse`, exactly as a network client would.
public struct EmbeddedBackendHTTPClient: HTTPClient {
  /// The base URL requests are built on; it never reaches a network.
  public static let baseURL = URL(string: "http://embedded.backend")!

  private let backend: OpenedOnce

  public init(backend: EmbeddedBackend) {
    self.backend = OpenedOnce { backend }
  }

  /// Opens the backend at the first request, once: a command that sends none (`logout
  /// --local`, `session` when signed out) works even when the backend's file cannot be
  /// opened, and one that does fails with the file's error as a server that is down would.
  public init(opening open: @escaping @Sendable () async throws -> EmbeddedBackend) {
    backend = OpenedOnce(open)
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let segments = (components?.percentEncodedPath ?? "").split(separator: "/")
      .map { String($0).removingPercentEncoding ?? String($0) }
    let query = Dictionary(
      (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    let backendRequest = BackendHTTPRequest(
      method: request.method, pathSegments: segments, query: query,
      headers: request.headers, body: request.body ?? Data())
    let opened = try await backend.value()
    let answer = await opened.handle(backendRequest)
    return HTTPResponse(
      status: answer.status, body: answer.body,
      retryAfter: HTTPResponse.retryAfter(header: answer.headers["Retry-After"]))
  }
}

/// The backend, opened by the first caller; every other caller waits for that opening.
private actor OpenedOnce {
  private let open: @Sendable () async throws -> EmbeddedBackend
  private var opening: Task<EmbeddedBackend, any Error>?

  init(_ open: @escaping @Sendable () async throws -> EmbeddedBackend) {
    self.open = open
  }

  func value() async throws -> EmbeddedBackend {
    if let opening { return try await opening.value }
    let task = Task { [open] in try await open() }
    opening = task
    return try await task.value
  }
}
