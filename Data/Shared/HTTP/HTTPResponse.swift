import Foundation

/// What came back: the status and the whole body. No mapper reads a response header, so
/// none is kept.
public struct HTTPResponse: Sendable, Equatable {
  public let status: Int
  public let body: Data
  /// The `Retry-After` header in seconds, when the server sent one in that form (429, 503).
  public let retryAfter: Int?

  public init(status: Int, body: Data, retryAfter: Int? = nil) {
    self.status = status
    self.body = body
    self.retryAfter = retryAfter
  }

  /// `Retry-After`'s delay-seconds form; the HTTP-date form, which API.md does not use,
  /// reads as absent.
  public static func retryAfter(header value: String?) -> Int? {
    guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0
    else { return nil }
    return seconds
  }

  public var isSuccess: Bool { (200..<300).contains(status) }
}
