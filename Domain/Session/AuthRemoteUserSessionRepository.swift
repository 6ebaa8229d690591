/// The session rules, composed from the backend's auth API and a local session store, as
/// the seed's `UnsplashUserSessionRepository` is. Named after its two collaborators.
public struct AuthRemoteUserSessionRepository: UserSessionRepository {
  private let remoteAPI: any AuthRemoteAPI
  private let dataStore: any UserSessionDataStore

  public init(remoteAPI: any AuthRemoteAPI, dataStore: any UserSessionDataStore) {
    self.remoteAPI = remoteAPI
    self.dataStore = dataStore
  }

  public var storageLocation: String { dataStore.location }
  public var storageRetention: String? { dataStore.retention }

  public func loadUserSession() async throws -> UserSession? {
    guard let stored = try await dataStore.readUserSession() else { return nil }
    do {
      let profile = try await remoteAPI.fetchProfile(with: stored.accessToken)
      return UserSession(profile: profile, remoteSession: stored)
    } catch RemoteAPIError.unauthorized {
      // Only the server's explicit "no" ends a session: a server that is down or failing
      // says nothing about the token, and deleting it then would sign people out for nothing.
      try await dataStore.deleteUserSession()
      throw SessionError.expired(username: stored.username)
    }
  }

  public func storedUserSession() async throws -> RemoteUserSession? {
    try await dataStore.readUserSession()
  }

  public func signIn(username: String, password: String) async throws -> UserSession {
    let issues = CredentialRules.issues(signingInAs: username, password: password)
    guard issues.isEmpty else { throw SessionError.invalidInput(issues) }
    try await dataStore.checkWritable()
    let token = try await remoteAPI.signIn(username: username, password: password)
    return try await keep(token, username: username)
  }

  public func signUp(_ account: NewAccount) async throws -> UserSession {
    let issues = CredentialRules.issues(signingUp: account)
    guard issues.isEmpty else { throw SessionError.invalidInput(issues) }
    try await dataStore.checkWritable()
    let token = try await remoteAPI.signUp(account)
    return try await keep(token, username: account.username)
  }

  public func logout(revokingOnServer: Bool) async throws -> LogoutOutcome {
    guard let stored = try await dataStore.readUserSession() else { return .wasNotSignedIn }
    var revoked = false
    if revokingOnServer {
      do {
        try await remoteAPI.revoke(stored.accessToken)
        revoked = true
      } catch RemoteAPIError.unauthorized {
        // The server no longer knows the token: it is as revoked as it can be.
        revoked = true
      }
    }
    try await dataStore.deleteUserSession()
    return .signedOut(username: stored.username, revoked: revoked)
  }

  /// Loads the profile and stores the session. A token that cannot be completed into a
  /// kept session is revoked, so that no live token is left behind that nobody holds.
  private func keep(_ token: AccessToken, username: String) async throws -> UserSession {
    do {
      let profile = try await remoteAPI.fetchProfile(with: token)
      let remoteSession = RemoteUserSession(username: profile.username, accessToken: token)
      try await dataStore.save(remoteSession)
      return UserSession(profile: profile, remoteSession: remoteSession)
    } catch {
      try? await remoteAPI.revoke(token)
      throw error
    }
  }
}
