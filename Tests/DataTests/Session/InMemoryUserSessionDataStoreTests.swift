import Domain
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct InMemoryUserSessionDataStoreTests {
  @Test func readsNothing_whenEmpty() async throws { try await specs().readsNothing_whenEmpty() }
  @Test func readsWhatWasSaved() async throws { try await specs().readsWhatWasSaved() }
  @Test func savingTheSameAccountAgain_keepsTheNewToken() async throws {
    try await specs().savingTheSameAccountAgain_keepsTheNewToken()
  }
  @Test func savingAnotherAccount_replacesTheFirst() async throws {
    try await specs().savingAnotherAccount_replacesTheFirst()
  }
  @Test func deleting_leavesNothing_andDeletingNothingIsFine() async throws {
    try await specs().deleting_leavesNothing_andDeletingNothingIsFine()
  }
  @Test func checkingWritability_leavesNoSessionBehind() async throws {
    try await specs().checkingWritability_leavesNoSessionBehind()
  }
  @Test func serversAreIndependent() async throws { try await specs().serversAreIndependent() }
  @Test func concurrentSaves_keepOneWholeSession() async throws {
    try await specs().concurrentSaves_keepOneWholeSession()
  }

  /// One in-memory store per server, shared by every store made for that server, as the
  /// keyring is shared by every process.
  private func specs() -> UserSessionDataStoreSpecs {
    let stores = Mutex<[String: InMemoryUserSessionDataStore]>([:])
    return UserSessionDataStoreSpecs(
      makeStore: { server in
        stores.withLock { stores in
          if let store = stores[server] { return store }
          let store = InMemoryUserSessionDataStore()
          stores[server] = store
          return store
        }
      }, server: "memory")
  }
}
