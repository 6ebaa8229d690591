import Domain
import Testing

/// The behaviours every `UserSessionDataStore` must have, run against each implementation
/// (essential-feed's `FeedStoreSpecs`). `makeStore(server)` gives a store for that server.
struct UserSessionDataStoreSpecs {
  let makeStore: @Sendable (String) -> any UserSessionDataStore
  let server: String

  func readsNothing_whenEmpty() async throws {
    #expect(try await makeStore(server).readUserSession() == nil)
  }

  func readsWhatWasSaved() async throws {
    let sut = makeStore(server)
    #expect(try await sut.signedInUsername() == nil)
    try await sut.save(session("alice", "token-1"))
    #expect(try await sut.readUserSession() == session("alice", "token-1"))
    #expect(try await sut.signedInUsername() == "alice")
    // A new instance for the same server sees it too: it is stored, not cached.
    #expect(try await makeStore(server).readUserSession() == session("alice", "token-1"))
  }

  func savingTheSameAccountAgain_keepsTheNewToken() async throws {
    let sut = makeStore(server)
    try await sut.save(session("alice", "token-1"))
    try await sut.save(session("alice", "token-2"))
    #expect(try await sut.readUserSession() == session("alice", "token-2"))
  }

  func savingAnotherAccount_replacesTheFirst() async throws {
    let sut = makeStore(server)
    try await sut.save(session("alice", "token-1"))
    try await sut.save(session("bob", "token-2"))
    #expect(try await sut.readUserSession() == session("bob", "token-2"))
    #expect(try await sut.signedInUsername() == "bob")
    try await sut.deleteUserSession()
    #expect(try await sut.readUserSession() == nil)
    #expect(try await sut.signedInUsername() == nil)
  }

  func deleting_leavesNothing_andDeletingNothingIsFine() async throws {
    let sut = makeStore(server)
    try await sut.deleteUserSession()
    try await sut.save(session("alice", "token-1"))
    try await sut.deleteUserSession()
    #expect(try await sut.readUserSession() == nil)
  }

  func checkingWritability_leavesNoSessionBehind() async throws {
    let sut = makeStore(server)
    try await sut.checkWritable()
    #expect(try await sut.readUserSession() == nil)
  }

  func serversAreIndependent() async throws {
    let first = makeStore(server)
    let second = makeStore(server + "-other")
    try await first.save(session("alice", "token-1"))
    try await second.save(session("bob", "token-2"))
    #expect(try await first.readUserSession() == session("alice", "token-1"))
    #expect(try await second.readUserSession() == session("bob", "token-2"))
    try await second.deleteUserSession()
    #expect(try await first.readUserSession() == session("alice", "token-1"))
  }

  private func session(_ username: String, _ token: String) -> RemoteUserSession {
    RemoteUserSession(username: username, accessToken: AccessToken(token))
  }
}
