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
}
