import Contract
import Foundation

/// One request of the contract as the adapters build it: a route (`APIRoute`, which says
/// the method, the path and the query), the server it goes to, header fields and an optional
/// body.
///
/// The route stays a value all the way down: the network adapter prints it as a URL, and the
/// embedded backend's adapter hands it to the backend as it is.
public struct HTTPRequest: Sendable, Equatable {
  public let route: APIRoute
  public let endpoint: APIEndpoint
  /// Field names as they were set; `header(_:)` and `setHeader(_:_:)` ignore case, as HTTP
  /// does.
  public private(set) var headers: [String: String]
  public var body: Data?

  public init(_ route: APIRoute, on endpoint: APIEndpoint, body: Data? = nil) {
    self.route = route
    self.endpoint = endpoint
    self.headers = [:]
    self.body = body
  }

  /// `GET`, `POST` or `DELETE`, as the contract gives the route.
  public var method: String { route.method.rawValue }

  /// The absolute URL the route is at on `endpoint`.
  public var url: URL { endpoint.url(route.target) }

  /// Sets a header field, replacing one of the same name in any case.
  public mutating func setHeader(_ name: String, _ value: String) {
    if let existing = key(for: name) { headers[existing] = nil }
    headers[name] = value
  }

  public func header(_ name: String) -> String? {
    key(for: name).flatMap { headers[$0] }
  }

  /// A request whose body is `body` as JSON (one of the contract's `APIBody` types).
  public static func postingJSON(
    _ route: APIRoute, on endpoint: APIEndpoint, _ body: some Encodable
  ) -> HTTPRequest {
    var request = HTTPRequest(route, on: endpoint, body: try! JSONEncoder().encode(body))
    request.setHeader("Content-Type", "application/json")
    return request
  }

  private func key(for name: String) -> String? {
    headers.keys.first { $0.caseInsensitiveCompare(name) == .orderedSame }
  }
}
