/// Why a session operation did not give the person a session, in the words of the rules.
public enum SessionError: Error, Equatable, Sendable {
  /// No session is stored for this server.
  case notSignedIn
  /// A stored session was rejected by the server; it has been deleted.
  case expired(username: String)
  /// The username or password was wrong.
  case invalidCredentials
  /// Sign-up asked for a username somebody already has.
  case usernameTaken(String)
  /// The input broke the rules, found before any request was made.
  case invalidInput([CredentialIssue])
  /// The server refused the input for a reason of its own (`422 invalid_request`).
  case rejectedByServer(reason: String)
}
