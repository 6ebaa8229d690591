import Backend
import Contract

/// The largest request body each route takes. Messages may be large (the app sends texts of
/// several megabytes); every other request is a small JSON object, so a large body there is
/// only an attack on the server's memory.
public struct BodyLimits: Sendable, Equatable {
  /// `POST /messages`, in bytes.
  public var messages: Int
  /// Every other route, in bytes.
  public var other: Int

  public init(messages: Int = 16 << 20, other: Int = 64 << 10) {
    self.messages = messages
    self.other = other
  }

  /// The limit of a request for `operation`, or for a request that is none (`other`).
  func limit(for operation: APIOperation?) -> Int {
    operation?.bodySize == .message ? messages : other
  }

  /// API.md's `413 body_too_large`, naming the limit. The server closes the connection
  /// after it, so it says so: the rest of the body is never read.
  static func tooLarge(_ limit: Int) -> BackendHTTPResponse {
    let answer = BackendHTTPResponse.error(
      413, "body_too_large", "The request body is over this endpoint's limit of \(size(limit))")
    var headers = answer.headers
    headers["Connection"] = "close"
    return BackendHTTPResponse(status: 413, headers: headers, body: answer.body)
  }

  /// "16 MiB", "64 KiB", or bytes.
  static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
