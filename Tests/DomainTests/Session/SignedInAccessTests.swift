import Domain
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct SignedInAccessTests {
  @Test func perform_hasTheStoredToken() async throws {
    let store = InMemoryUserSessionDataStore(
      RemoteUserSession(username: "alice", accessToken: AccessToken("t1")))

    let seen = try await SignedInAccess(dataStore: store).perform { token in token.value }

    #expect(seen == "t1")
  }

  @Test func perform_refusesWithoutASession_andMakesNoRequest() async {
    let calls = CallLog<String>()
    await #expect(throws: SessionError.notSignedIn) {
      try await SignedInAccess(dataStore: InMemoryUserSessionDataStore()).perform { _ in
        calls.append("request")
      }
    }
    #expect(calls.all.isEmpty)
  }

  @Test func perform_endsTheSessionOnA401() async throws {
    let store = InMemoryUserSessionDataStore(
      RemoteUserSession(username: "alice", accessToken: AccessToken("t1")))

    await #expect(throws: SessionError.expired(username: "alice")) {
      try await SignedInAccess(dataStore: store).perform { _ in throw RemoteAPIError.unauthorized }
    }
    #expect(try await store.readUserSession() == nil)
  }

  @Test func perform_keepsTheSessionOnOtherFailures() async throws {
    let session = RemoteUserSession(username: "alice", accessToken: AccessToken("t1"))
    let store = InMemoryUserSessionDataStore(session)

    await #expect(throws: RemoteAPIError.server(status: 500, code: nil, description: nil)) {
      try await SignedInAccess(dataStore: store).perform { _ in
        throw RemoteAPIError.server(status: 500, code: nil, description: nil)
      }
    }
    #expect(try await store.readUserSession() == session)
  }

  // MARK: - A session kept across requests (the realtime watch's polls)

  @Test func keeping_readsTheStoreOnce_forManyRequests() async throws {
    let store = CountingStore(RemoteUserSession(username: "alice", accessToken: AccessToken("t1")))
    let access = SignedInAccess(dataStore: store)
    let kept = SignedInAccess.Kept()

    for _ in 1...20 {
      #expect(try await access.perform(keeping: kept) { $0.value } == "t1")
    }

    #expect(store.reads == 1, "a keyring read is a D-Bus exchange: once, not at every poll")
  }

  @Test func keeping_aRejectedTokenStillStored_endsTheSession() async throws {
    let store = CountingStore(RemoteUserSession(username: "alice", accessToken: AccessToken("t1")))
    let access = SignedInAccess(dataStore: store)
    let kept = SignedInAccess.Kept()
    _ = try await access.perform(keeping: kept) { $0.value }

    await #expect(throws: SessionError.expired(username: "alice")) {
      try await access.perform(keeping: kept) { _ in throw RemoteAPIError.unauthorized }
    }
    #expect(try await store.readUserSession() == nil)
  }

  @Test func keeping_aRejectedTokenAnotherProcessReplaced_goesOnWithTheNewSession() async throws {
    let store = CountingStore(RemoteUserSession(username: "alice", accessToken: AccessToken("t1")))
    let access = SignedInAccess(dataStore: store)
    let kept = SignedInAccess.Kept()
    _ = try await access.perform(keeping: kept) { $0.value }
    let fresh = RemoteUserSession(username: "alice", accessToken: AccessToken("t2"))
    try await store.save(fresh)

    let seen = try await access.perform(keeping: kept) { token in
      guard token.value == "t2" else { throw RemoteAPIError.unauthorized }
      return token.value
    }

    #expect(seen == "t2")
    #expect(try await store.readUserSession() == fresh, "the new sign-in is not deleted")
    #expect(try await access.perform(keeping: kept) { $0.value } == "t2", "and is kept")
  }

  @Test func keeping_aRejectedTokenWhoseSessionWasRemoved_endsIt_deletingNothing() async throws {
    let store = CountingStore(RemoteUserSession(username: "alice", accessToken: AccessToken("t1")))
    let access = SignedInAccess(dataStore: store)
    let kept = SignedInAccess.Kept()
    _ = try await access.perform(keeping: kept) { $0.value }
    try await store.deleteUserSession()
    let other = RemoteUserSession(username: "bob", accessToken: AccessToken("b1"))

    await #expect(throws: SessionError.expired(username: "alice")) {
      try await access.perform(keeping: kept) { _ in throw RemoteAPIError.unauthorized }
    }
    try await store.save(other)
    #expect(try await access.perform(keeping: kept) { $0.value } == "b1", "read anew next time")
  }
}

/// A store that counts its reads of the session.
private final class CountingStore: UserSessionDataStore {
  private let stored: InMemoryUserSessionDataStore
  private let count = Mutex(0)

  init(_ session: RemoteUserSession) {
    stored = InMemoryUserSessionDataStore(session)
  }

  var reads: Int { count.withLock { $0 } }
  var location: String { stored.location }

  func readUserSession() async throws -> RemoteUserSession? {
    count.withLock { $0 += 1 }
    return try await stored.readUserSession()
  }

  func save(_ session: RemoteUserSession) async throws { try await stored.save(session) }
  func deleteUserSession() async throws { try await stored.deleteUserSession() }
  func checkWritable() async throws {}
}
