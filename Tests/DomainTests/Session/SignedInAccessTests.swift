import Domain
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
}
