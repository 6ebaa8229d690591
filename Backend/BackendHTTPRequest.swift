import Contract
import Foundation

/// A request as the HTTP server received it, before the contract has read it: a method, a
/// target (decoded path segments and query items, relative to the served base path), headers
/// and the body. `BackendService.handle(_:)` reads it into an `APIRequest`.
public struct BackendHTTPRequest: Sendable {
  public let method: String
  public let target: RequestTarget
  public let headers: [String: String]
  public let body: Data
  /// The client's IP address, as the server's socket saw it; nil in process. Sign-ins are
  /// throttled per address as well as per account.
  public let remoteAddress: String?
  /// The contract's operation of the method and path, matched once, when the request is made.
  public let resolved: APIOperation.Resolved

  public init(
    method: String, target: RequestTarget, headers: [String: String] = [:], body: Data = Data(),
    remoteAddress: String? = nil
  ) {
    let method = method.uppercased()
    self.init(
      method: method, target: target,
      resolved: APIOperation.resolve(method: method, pathSegments: target.pathSegments),
      // Header names are case-insensitive on the wire.
      lowercasedHeaders: Dictionary(
        headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
      body: body, remoteAddress: remoteAddress)
  }

  /// The server's: the operation resolved and the header names lowercased already.
  package init(
    method: String, target: RequestTarget, resolved: APIOperation.Resolved,
    lowercasedHeaders: [String: String], body: Data, remoteAddress: String?
  ) {
    self.method = method
    self.target = target
    self.resolved = resolved
    self.headers = lowercasedHeaders
    self.body = body
    self.remoteAddress = remoteAddress
  }

  /// The operation, when the contract has one for the method and path.
  public var operation: APIOperation? { resolved.operation }

  /// A request made by hand (the tests'): decoded segments, and a query of distinct names.
  public init(
    method: String, pathSegments: [String], query: [String: String] = [:],
    headers: [String: String] = [:], body: Data = Data(), remoteAddress: String? = nil
  ) {
    self.init(
      method: method,
      target: RequestTarget(
        pathSegments: pathSegments,
        query: query.sorted { $0.key < $1.key }.map { QueryItem($0.key, $0.value) }),
      headers: headers, body: body, remoteAddress: remoteAddress)
  }

  public var pathSegments: [String] { target.pathSegments }

  /// The path as sent, percent-encoded, without its query.
  public var path: String { target.encodedPath }
}

/// A request the contract has read: its route, with the headers and body the route's handler
/// reads. The in-process client makes one directly from the route it was given; the HTTP
/// server parses one from the wire.
public struct APIRequest: Sendable {
  public let route: APIRoute
  public let headers: [String: String]
  public let body: Data
  /// The client's IP address; nil in process.
  public let remoteAddress: String?

  public init(
    _ route: APIRoute, headers: [String: String] = [:], body: Data = Data(),
    remoteAddress: String? = nil
  ) {
    self.init(
      route,
      lowercasedHeaders: Dictionary(
        headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
      body: body, remoteAddress: remoteAddress)
  }

  /// From a `BackendHTTPRequest`, whose header names are lowercased already.
  package init(
    _ route: APIRoute, lowercasedHeaders: [String: String], body: Data, remoteAddress: String?
  ) {
    self.route = route
    self.headers = lowercasedHeaders
    self.body = body
    self.remoteAddress = remoteAddress
  }

  /// The token of an `Authorization: Bearer …` header, if there is one.
  var bearerToken: String? { Self.bearerToken(in: headers) }

  /// Header names lowercased, as both request types keep them.
  static func bearerToken(in headers: [String: String]) -> String? {
    guard let value = headers["authorization"] else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }
}
