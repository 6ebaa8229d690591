/// The part of a session that is kept between runs: whose it is and the token that proves
/// it. This is all a `UserSessionDataStore` stores; the profile is asked of the server
/// again at every launch, which is also how an expired session is noticed.
public struct RemoteUserSession: Equatable, Sendable {
  public let username: String
  public let accessToken: AccessToken

  public init(username: String, accessToken: AccessToken) {
    self.username = username
    self.accessToken = accessToken
  }
}
