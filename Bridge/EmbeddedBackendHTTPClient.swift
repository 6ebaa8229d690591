import Backend
import Data
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An `HTTPClient` that hands each request to the in-process `EmbeddedBackend` and returns
/// its status and bytes as an `HTTPURLResponse`, exactly as a network client would.
public struct EmbeddedBackendHTTPClient: HTTPClient {
  /// The base URL requests are built on; it never reaches a network.
  public static let baseURL = URL(string: "http://embedded.backend")!

  private let backend: EmbeddedBackend

  public init(backend: EmbeddedBackend) {
    self.backend = backend
  }

  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let url = request.url ?? Self.baseURL
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let segments = (components?.percentEncodedPath ?? "").split(separator: "/")
      .map { String($0).removingPercentEncoding ?? String($0) }
    let query = Dictionary(
      (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    let backendRequest = BackendHTTPRequest(
      method: request.httpMethod ?? "GET", pathSegments: segments, query: query,
      headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody ?? Data())
    let answer = await backend.handle(backendRequest)
    let response = HTTPURLResponse(
      url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)!
    return (answer.body, response)
  }
}
