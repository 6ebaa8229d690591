import Foundation

/// A request as the embedded backend's router sees it: already split into decoded path
/// segments and query items, relative to the backend's base URL.
public struct BackendHTTPRequest: Sendable {
  public let method: String
  public let pathSegments: [String]
  public let query: [String: String]
  public let headers: [String: String]
  public let body: Data
  /// The client's IP address, as the server's socket saw it; nil in process. Sign-ins are
  /// throttled per address as well as per account.
  public let remoteAddress: String?

  public init(
    method: String, pathSegments: [String], query: [String: String] = [:],
    headers: [String: String] = [:], body: Data = Data(), remoteAddress: String? = nil
  ) {
    self.method = method.uppercased()
    self.pathSegments = pathSegments
    self.query = query
    // Header names are case-insensitive on the wire.
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    self.body = body
    self.remoteAddress = remoteAddress
  }

  public var path: String { "/" + pathSegments.joined(separator: "/") }

  /// The token of an `Authorization: Bearer …` header, if there is one.
  var bearerToken: String? {
    guard let value = headers["authorization"] else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }
}
