import Backend
import Contract

/// One answered request, as the access log records it: never a header or a body, so never a
/// token or a password. The front end decides the format (text or JSON lines).
public struct AccessLogEntry: Sendable, Equatable {
  /// The request's id, also sent back as `X-Request-ID`.
  public let requestID: String
  public let method: String
  /// The path without its query, which may carry ids a log has no need of.
  public let path: String
  /// The contract's operation the request was, if it was one (the metrics' label).
  public let operation: APIOperation?
  public let status: Int
  public let milliseconds: Double
  /// What failed, for a failure no route expected (a `500`): the store's words, which the
  /// client is not sent.
  public var failure: String? = nil
}
