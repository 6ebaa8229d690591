import Domain
import Presentation
import Testing

@Suite(.timeLimit(.minutes(1))) struct UserFacingErrorTests {
  @Test(arguments: [
    (SessionError.notSignedIn as any Error, "not_signed_in", "You are not signed in.", true),
    (
      SessionError.expired(username: "bob"), "session_expired",
      "The session of bob has expired or was revoked; it was removed.", true
    ),
    (SessionError.invalidCredentials, "invalid_credentials", "Wrong username or password.", false),
    (SessionError.usernameTaken("bob"), "username_taken", "The username bob is taken.", false),
    (
      SessionError.invalidInput([.nameMissing, .passwordTooShort]), "invalid_input",
      "Enter your name. A password needs at least 8 characters.", false
    ),
    (
      SessionError.rejectedByServer(reason: "too short"), "rejected",
      "The server refused the input: too short.", false
    ),
    (RemoteAPIError.unauthorized, "unauthorized", "The server rejected the session.", true),
    (
      RemoteAPIError.unreachable(reason: "could not connect to h:1"), "server_unreachable",
      "The server is unreachable: could not connect to h:1.", false
    ),
    (
      RemoteAPIError.timedOut(seconds: 15), "timeout", "The server did not answer within 15 s.",
      false
    ),
    (
      RemoteAPIError.server(status: 500, code: nil, description: nil), "server_error",
      "The server answered HTTP 500.", false
    ),
    (
      RemoteAPIError.server(status: 503, code: "maintenance", description: nil), "server_error",
      "The server answered HTTP 503 (maintenance).", false
    ),
    (
      RemoteAPIError.server(status: 503, code: "maintenance", description: "back at noon"),
      "server_error", "The server answered HTTP 503: back at noon.", false
    ),
    (
      RemoteAPIError.invalidResponse(reason: "not JSON"), "invalid_response",
      "The server's answer could not be read: not JSON.", false
    ),
    (
      SessionStoreError.unavailable(reason: "Could not connect"), "keyring_unavailable",
      "No usable Secret Service: Could not connect.", false
    ),
    (CancellationError(), "cancelled", "Cancelled.", false),
  ])
  func describesEveryErrorForAPerson(
    error: any Error, code: String, message: String, requiresAuthentication: Bool
  ) {
    let sut = UserFacingError(error)
    #expect(sut.code == code)
    #expect(sut.message == message)
    #expect(sut.requiresAuthentication == requiresAuthentication)
  }

  @Test func keyringErrors_sayWhereTokensLiveAndHowToGetAKeyring() {
    let hint = UserFacingError(SessionStoreError.timedOut(seconds: 10)).hint ?? ""
    #expect(hint.contains("never in a file"))
    #expect(hint.contains("scripts/with-keyring"))
  }
}
