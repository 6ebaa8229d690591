import Domain
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct AuthRemoteUserSessionRepositoryTests {
  // MARK: - Launch

  @Test func loadUserSession_deliversNil_andAsksNoServer_whenNothingIsStored() async throws {
    let (sut, _, _, log) = makeSUT()

    #expect(try await sut.loadUserSession() == nil)
    #expect(log.all == [.read])
  }

  @Test func loadUserSession_deliversProfileAndToken_whenServerConfirmsStoredToken() async throws {
    let (sut, remote, _, log) = makeSUT(stored: aliceSession)
    remote.profileResult.withLock { $0 = .success(aliceProfile) }

    let session = try await sut.loadUserSession()

    #expect(session == UserSession(profile: aliceProfile, remoteSession: aliceSession))
    #expect(log.all == [.read, .fetchProfile(token: "alice-token")])
  }

  @Test func loadUserSession_deletesSessionAndReportsExpiry_whenServerAnswers401() async throws {
    let (sut, remote, store, log) = makeSUT(stored: aliceSession)
    remote.profileResult.withLock { $0 = .failure(RemoteAPIError.unauthorized) }

    await #expect(throws: SessionError.expired(username: "alice")) {
      try await sut.loadUserSession()
    }
    #expect(log.all == [.read, .fetchProfile(token: "alice-token"), .delete])
    #expect(store.stored.withLock { $0 } == nil)
  }

  @Test(arguments: [
    RemoteAPIError.unreachable(reason: "connection refused"),
    .timedOut(seconds: 15),
    .server(status: 500, code: nil, description: nil),
    .server(status: 503, code: "maintenance", description: "back soon"),
    .invalidResponse(reason: "not JSON"),
  ])
  func loadUserSession_keepsSession_whenServerFailsWithoutRejectingIt(_ failure: RemoteAPIError)
    async
  {
    let (sut, remote, store, log) = makeSUT(stored: aliceSession)
    remote.profileResult.withLock { $0 = .failure(failure) }

    await #expect(throws: failure) { try await sut.loadUserSession() }
    #expect(log.all == [.read, .fetchProfile(token: "alice-token")])
    #expect(store.stored.withLock { $0 } == aliceSession)
  }

  @Test func loadUserSession_reportsStoreFailure_withoutAskingServer() async {
    let (sut, _, store, log) = makeSUT()
    store.failure.withLock { $0 = .unavailable(reason: "no bus") }

    await #expect(throws: SessionStoreError.unavailable(reason: "no bus")) {
      try await sut.loadUserSession()
    }
    #expect(log.all == [.read])
  }

  // MARK: - Sign in

  @Test func signIn_checksStoreIsWritable_beforeAskingForToken_thenStoresIt() async throws {
    let (sut, remote, store, log) = makeSUT()
    remote.signInResult.withLock { $0 = .success(AccessToken("alice-token")) }
    remote.profileResult.withLock { $0 = .success(aliceProfile) }

    let session = try await sut.signIn(username: "alice", password: "secret-password")

    #expect(session == UserSession(profile: aliceProfile, remoteSession: aliceSession))
    #expect(
      log.all == [
        .checkWritable, .signIn(username: "alice"), .fetchProfile(token: "alice-token"),
        .save(username: "alice", token: "alice-token"),
      ])
    #expect(store.stored.withLock { $0 } == aliceSession)
  }

  @Test func signIn_asksNoServer_whenStoreIsNotWritable() async {
    let (sut, _, store, log) = makeSUT()
    store.failure.withLock { $0 = .timedOut(seconds: 10) }

    await #expect(throws: SessionStoreError.timedOut(seconds: 10)) {
      try await sut.signIn(username: "alice", password: "secret-password")
    }
    #expect(log.all == [.checkWritable])
  }

  @Test func signIn_rejectsMissingInput_withoutAnyCall() async {
    let (sut, _, _, log) = makeSUT()

    await #expect(throws: SessionError.invalidInput([.usernameMissing, .passwordMissing])) {
      try await sut.signIn(username: "  ", password: "")
    }
    #expect(log.all.isEmpty)
  }

  @Test func signIn_storesNothing_whenCredentialsAreWrong() async {
    let (sut, remote, store, log) = makeSUT(stored: aliceSession)
    remote.signInResult.withLock { $0 = .failure(SessionError.invalidCredentials) }

    await #expect(throws: SessionError.invalidCredentials) {
      try await sut.signIn(username: "bob", password: "wrong-password")
    }
    #expect(log.all == [.checkWritable, .signIn(username: "bob")])
    #expect(store.stored.withLock { $0 } == aliceSession)
  }

  @Test func signIn_revokesFreshToken_whenItCannotBeStored() async {
    let (sut, remote, store, log) = makeSUT()
    remote.signInResult.withLock { $0 = .success(AccessToken("alice-token")) }
    remote.profileResult.withLock { $0 = .success(aliceProfile) }
    remote.revokeResult.withLock { $0 = .success(()) }
    let storeFailure = SessionStoreError.unavailable(reason: "collection is locked")
    store.saveFailure.withLock { $0 = storeFailure }

    await #expect(throws: storeFailure) {
      try await sut.signIn(username: "alice", password: "secret-password")
    }
    #expect(
      log.all == [
        .checkWritable, .signIn(username: "alice"), .fetchProfile(token: "alice-token"),
        .save(username: "alice", token: "alice-token"), .revoke(token: "alice-token"),
      ])
  }

  @Test func signIn_revokesFreshToken_whenProfileCannotBeLoaded() async {
    let (sut, remote, _, log) = makeSUT()
    remote.signInResult.withLock { $0 = .success(AccessToken("alice-token")) }
    remote.profileResult.withLock { $0 = .failure(RemoteAPIError.timedOut(seconds: 15)) }
    remote.revokeResult.withLock { $0 = .success(()) }

    await #expect(throws: RemoteAPIError.timedOut(seconds: 15)) {
      try await sut.signIn(username: "alice", password: "secret-password")
    }
    #expect(log.all.last == .revoke(token: "alice-token"))
    #expect(!log.all.contains { if case .save = $0 { true } else { false } })
  }

  // MARK: - Sign up

  @Test func signUp_validatesBeforeAnyCall() async {
    let (sut, _, _, log) = makeSUT()

    await #expect(throws: SessionError.invalidInput([.usernameMalformed, .passwordTooShort])) {
      try await sut.signUp(NewAccount(username: "Al ice", name: "Alice", password: "short"))
    }
    #expect(log.all.isEmpty)
  }

  @Test func signUp_checksStore_createsAccount_andStoresSession() async throws {
    let (sut, remote, _, log) = makeSUT()
    remote.signUpResult.withLock { $0 = .success(AccessToken("alice-token")) }
    remote.profileResult.withLock { $0 = .success(aliceProfile) }

    let session = try await sut.signUp(
      NewAccount(username: "alice", name: "Alice", password: "long-enough"))

    #expect(session.profile == aliceProfile)
    #expect(
      log.all == [
        .checkWritable, .signUp(username: "alice"), .fetchProfile(token: "alice-token"),
        .save(username: "alice", token: "alice-token"),
      ])
  }

  // MARK: - Logout

  @Test func logout_revokesOnServer_thenDeletes() async throws {
    let (sut, remote, store, log) = makeSUT(stored: aliceSession)
    remote.revokeResult.withLock { $0 = .success(()) }

    #expect(
      try await sut.logout(revokingOnServer: true) == .signedOut(username: "alice", revoked: true))
    #expect(log.all == [.read, .revoke(token: "alice-token"), .delete])
    #expect(store.stored.withLock { $0 } == nil)
  }

  @Test func logout_treatsA401AsAlreadyRevoked() async throws {
    let (sut, remote, _, log) = makeSUT(stored: aliceSession)
    remote.revokeResult.withLock { $0 = .failure(RemoteAPIError.unauthorized) }

    #expect(
      try await sut.logout(revokingOnServer: true) == .signedOut(username: "alice", revoked: true))
    #expect(log.all == [.read, .revoke(token: "alice-token"), .delete])
  }

  @Test func logout_keepsSession_whenServerCannotRevoke() async {
    let (sut, remote, store, log) = makeSUT(stored: aliceSession)
    remote.revokeResult.withLock { $0 = .failure(RemoteAPIError.unreachable(reason: "down")) }

    await #expect(throws: RemoteAPIError.unreachable(reason: "down")) {
      try await sut.logout(revokingOnServer: true)
    }
    #expect(log.all == [.read, .revoke(token: "alice-token")])
    #expect(store.stored.withLock { $0 } == aliceSession)
  }

  @Test func logout_locally_deletesWithoutAskingServer() async throws {
    let (sut, _, _, log) = makeSUT(stored: aliceSession)

    #expect(
      try await sut.logout(revokingOnServer: false) == .signedOut(username: "alice", revoked: false)
    )
    #expect(log.all == [.read, .delete])
  }

  @Test func logout_reportsNothingToDo_whenNotSignedIn() async throws {
    let (sut, _, _, log) = makeSUT()

    #expect(try await sut.logout(revokingOnServer: true) == .wasNotSignedIn)
    #expect(log.all == [.read])
  }

  // MARK: - Helpers

  private let aliceProfile = UserProfile(id: "id-1", username: "alice", name: "Alice Liddell")
  private let aliceSession = RemoteUserSession(
    username: "alice", accessToken: AccessToken("alice-token"))

  private func makeSUT(stored: RemoteUserSession? = nil) -> (
    AuthRemoteUserSessionRepository, AuthRemoteAPISpy, UserSessionDataStoreSpy, CallLog<SessionCall>
  ) {
    let log = CallLog<SessionCall>()
    let remote = AuthRemoteAPISpy(log: log)
    let store = UserSessionDataStoreSpy(log: log, stored: stored)
    return (
      AuthRemoteUserSessionRepository(remoteAPI: remote, dataStore: store), remote, store, log
    )
  }
}
