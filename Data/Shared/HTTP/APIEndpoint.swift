import Contract
import Foundation

/// A server's base URL, and the URLs of the contract's routes below it, keeping the base's
/// own path.
///
/// `http://host/api/v1` + `/me` must give `http://host/api/v1/me`; `URL(string:relativeTo:)`
/// would drop `api/v1`, which is why this exists.
public struct APIEndpoint: Sendable, Equatable {
  public let baseURL: URL

  public init(baseURL: URL) {
    self.baseURL = baseURL
  }

  /// The absolute URL of `target`, printed by the contract (`APIRoute.target`).
  public func url(_ target: RequestTarget) -> URL {
    var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
    let basePath =
      components.percentEncodedPath.hasSuffix("/")
      ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
    components.percentEncodedPath = basePath + target.encodedPath
    let query = target.encodedQuery
    components.percentEncodedQuery = query.isEmpty ? nil : query
    return components.url!
  }
}
