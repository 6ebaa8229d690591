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

  /// Two sign-ins at once, as two processes may make them: a session is kept, it is one of
  /// the two whole (never one account with the other's token), and it is kept again after.
  /// (The Secret Service store makes one keyring call at a time within a process, so there
  /// the two interleave call by call rather than within one.)
  func concurrentSaves_keepOneWholeSession() async throws {
    for round in 0..<5 {
      let alice = session("alice", "token-a\(round)")
      let bob = session("bob", "token-b\(round)")
      async let first: Void = makeStore(server).save(alice)
      async let second: Void = makeStore(server).save(bob)
      _ = try await (first, second)
      let kept = try await makeStore(server).readUserSession()
      #expect(kept == alice || kept == bob, "round \(round) kept \(String(describing: kept))")
    }
    let sameAccount = (0..<4).map { session("alice", "token-\($0)") }
    try await withThrowingTaskGroup { group in
      for each in sameAccount { group.addTask { try await makeStore(server).save(each) } }
      try await group.waitForAll()
    }
    let kept = try #require(try await makeStore(server).readUserSession())
    #expect(sameAccount.contains(kept))
    try await makeStore(server).deleteUserSession()
    #expect(try await makeStore(server).readUserSession() == nil)
  }

  private func session(_ username: String, _ token: String) -> RemoteUserSession {
    RemoteUserSession(username: username, accessToken: AccessToken(token))
  }
}
