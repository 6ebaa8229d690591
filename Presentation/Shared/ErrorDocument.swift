/// The `error` member of a failed command's JSON document (docs/json.md): its code, its
/// sentence, a hint, and how long the server asked to wait, when it said.
public struct ErrorDocument: Encodable, Sendable {
  public let code: String
  public let message: String
  @NullWhenAbsent public var hint: String?
  /// Seconds the server asked to wait before trying again (429, 503), when it said.
  @NullWhenAbsent public var retryAfter: Int?

  public init(code: String, message: String, hint: String?, retryAfter: Int? = nil) {
    self.code = code
    self.message = message
    self.hint = hint
    self.retryAfter = retryAfter
  }

  public init(_ error: UserFacingError) {
    self.init(
      code: error.code, message: error.message, hint: error.hint, retryAfter: error.retryAfter)
  }
}
