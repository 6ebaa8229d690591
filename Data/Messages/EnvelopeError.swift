/// What was wrong with a messages answer, named precisely enough to act on.
enum EnvelopeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The answer is not JSON at all (a proxy's HTML page, a truncated download).
  case envelopeNotJSON
  /// JSON, but not an object with `statusCode` and `body`.
  case envelopeNotAnObject
  case statusCodeMissing
  case bodyMissing
  /// `body` is there but not a string (the double encoding was skipped).
  case bodyNotAString
  /// `body` is a string but its text is not JSON.
  case bodyNotJSON
  /// `body` is JSON of the wrong shape; `detail` says where.
  case bodyMalformed(detail: String)
  /// The envelope's `statusCode` is not 200; `message` is the body's error text.
  case failed(statusCode: Int, message: String)

  var description: String {
    switch self {
    case .envelopeNotJSON: "the answer is not JSON"
    case .envelopeNotAnObject: "the answer is not an envelope object"
    case .statusCodeMissing: "the envelope has no numeric statusCode"
    case .bodyMissing: "the envelope has no body"
    case .bodyNotAString: "the envelope's body is not a string"
    case .bodyNotJSON: "the envelope's body is not valid JSON"
    case .bodyMalformed(let detail): "the envelope's body is malformed: \(detail)"
    case .failed(let statusCode, let message): "status \(statusCode): \(message)"
    }
  }
}
