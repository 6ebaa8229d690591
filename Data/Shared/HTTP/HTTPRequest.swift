import Foundation

/// One HTTP request as the adapters build it: a method, an absolute URL, header fields and
/// an optional body.
public struct HTTPRequest: Sendable, Equatable {
  public var method: String
  public var url: URL
  /// Field names as they were set; `header(_:)` and `setHeader(_:_:)` ignore case, as HTTP
  /// does.
  public private(set) var headers: [String: String]
  public var body: Data?

  public init(_ method: String = "GET", url: URL, body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = [:]
    self.body = body
  }

  /// Sets a header field, replacing one of the same name in any case.
  public mutating func setHeader(_ name: String, _ value: String) {
    if let existing = key(for: name) { headers[existing] = nil }
    headers[name] = value
  }

  public func header(_ name: String) -> String? {
    key(for: name).flatMap { headers[$0] }
  }

  /// A POST whose body is `fields` as a JSON object.
  public static func postingJSON(_ url: URL, _ fields: [String: String]) -> HTTPRequest {
    var request = HTTPRequest("POST", url: url, body: try! JSONEncoder().encode(fields))
    request.setHeader("Content-Type", "application/json")
    return request
  }

  private func key(for name: String) -> String? {
    headers.keys.first { $0.caseInsensitiveCompare(name) == .orderedSame }
  }
}
