/// Runs a request on behalf of the signed-in user: the rule every authenticated feature
/// shares.
///
/// The stored token is used as it is (no `GET /me` first, which would double every
/// request). A 401 answer means the session is over: it is deleted and the caller gets
/// `SessionError.expired`, exactly as at launch.
public struct SignedInAccess: Sendable {
  let dataStore: any UserSessionDataStore

  public init(dataStore: any UserSessionDataStore) {
    self.dataStore = dataStore
  }

  public func perform<T: Sendable>(
    _ request: @Sendable (AccessToken) async throws -> T
  ) async throws -> T {
    guard let session = try await storedSession() else { throw SessionError.notSignedIn }
    return try await perform(with: session, request)
  }

  func storedSession() async throws -> RemoteUserSession? {
    try await dataStore.readUserSession()
  }

  /// `request` with `session`'s token; a 401 deletes the stored session and ends it.
  func perform<T: Sendable>(
    with session: RemoteUserSession, _ request: @Sendable (AccessToken) async throws -> T
  ) async throws -> T {
    do {
      return try await request(session.accessToken)
    } catch RemoteAPIError.unauthorized {
      try await dataStore.deleteUserSession()
      throw SessionError.expired(username: session.username)
    }
  }
}
