/// What can go wrong when talking to a backend, in terms a use case can act on.
///
/// Adapters translate transport and HTTP failures into these cases so that the rules
/// ("a 401 ends the session, a 5xx does not") are written once, in Domain.
public enum RemoteAPIError: Error, Equatable, Sendable {
  /// The server rejected the session or the credentials (HTTP 401).
  case unauthorized
  /// The server could not be reached at all (connection refused, unknown host, no route).
  case unreachable(reason: String)
  /// The server did not answer within the client's time limit.
  case timedOut(seconds: Int)
  /// The server answered with an error status. `code` and `description` come from the
  /// contract's error body when there was one; a proxy's HTML page leaves them nil.
  case server(status: Int, code: String?, description: String?)
  /// The server answered with success but the body did not follow the contract.
  case invalidResponse(reason: String)
  /// Too many attempts, most often failed sign-ins (HTTP 429); `retryAfter` is the server's
  /// `Retry-After` in seconds, when it gave one. Never retried by the app.
  case tooManyAttempts(retryAfter: Int?)
  /// The request's body is over the server's limit for that endpoint (HTTP 413);
  /// `description` is the server's own words, which may name the limit.
  case bodyTooLarge(description: String?)
  /// The server's TLS certificate was refused: `reason` says how (an issuer not trusted, a
  /// name that does not match).
  case untrustedCertificate(reason: String)
  /// The server is overloaded or shutting down (HTTP 503); `retryAfter` as for 429, and
  /// `description` the server's own words, when it gave some.
  case unavailable(retryAfter: Int?, description: String?)
}

extension RemoteAPIError: CustomStringConvertible {
  /// A short phrase for places that keep a failure as text, such as the push flows' reasons
  /// ("the vendor backend failed (no answer within 15 s)"). Screens use `UserFacingError`.
  public var description: String {
    switch self {
    case .unauthorized: "session rejected"
    case .unreachable(let reason): "unreachable: \(reason)"
    case .timedOut(let seconds): "no answer within \(seconds) s"
    case .server(let status, let code, let description):
      "HTTP \(status)" + (description.map { ": \($0)" } ?? code.map { " (\($0))" } ?? "")
    case .invalidResponse(let reason): "unreadable answer: \(reason)"
    case .tooManyAttempts(let seconds): "too many attempts" + Self.wait(seconds)
    case .bodyTooLarge: "request too large"
    case .untrustedCertificate(let reason): "certificate refused: \(reason)"
    case .unavailable(let seconds, let description):
      "server unavailable" + (description.map { ": \($0)" } ?? "") + Self.wait(seconds)
    }
  }

  private static func wait(_ seconds: Int?) -> String {
    seconds.map { " (retry in \($0) s)" } ?? ""
  }
}
