import Foundation

/// Builds request URLs below a base URL, keeping the base's own path.
///
/// `http://host/api/v1` + `/me` must give `http://host/api/v1/me`; `URL(string:relativeTo:)`
/// would drop `api/v1`, which is why this exists.
public struct APIEndpoint: Sendable, Equatable {
  public let baseURL: URL

  public init(baseURL: URL) {
    self.baseURL = baseURL
  }

  /// `path` is made of already percent-encoded segments, starting with `/`.
  public func url(_ path: String, query: [URLQueryItem] = []) -> URL {
    var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
    let basePath =
      components.percentEncodedPath.hasSuffix("/")
      ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
    components.percentEncodedPath = basePath + path
    components.queryItems = query.isEmpty ? nil : query
    return components.url!
  }

  /// Percent-encodes one path segment, so that a name with `/`, `?`, spaces or emoji stays
  /// one segment.
  public static func encodeSegment(_ segment: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "/?#;")
    let encoded = segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    // "." and ".." are dot segments: URL handling removes them, so `--user ..` asked for
    // the parent path. Encoded, they are a name like any other.
    guard !encoded.isEmpty, encoded.allSatisfy({ $0 == "." }) else { return encoded }
    return String(repeating: "%2E", count: encoded.count)
  }
}
