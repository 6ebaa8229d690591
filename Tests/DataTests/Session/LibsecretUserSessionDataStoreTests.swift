import Data
import Domain
import Foundation
import TestSupport
import Testing

/// The store contract against the real Secret Service. Each test uses its own `service`
/// and `server` attributes and deletes what it stored, so it never meets the app's items.
/// Under CI=true a missing keyring fails these tests instead of skipping them.
@Suite(
  .timeLimit(.minutes(1)),
  .enabled(if: TestKeyring.shouldTest, "no Secret Service reachable (CI=true makes this a failure)")
)
struct LibsecretUserSessionDataStoreTests {
  @Test func readsNothing_whenEmpty() async throws {
    try await withSpecs { try await $0.readsNothing_whenEmpty() }
  }
  @Test func readsWhatWasSaved() async throws {
    try await withSpecs { try await $0.readsWhatWasSaved() }
  }
  @Test func savingTheSameAccountAgain_keepsTheNewToken() async throws {
    try await withSpecs { try await $0.savingTheSameAccountAgain_keepsTheNewToken() }
  }
  @Test func savingAnotherAccount_replacesTheFirst() async throws {
    try await withSpecs { try await $0.savingAnotherAccount_replacesTheFirst() }
  }
  @Test func deleting_leavesNothing_andDeletingNothingIsFine() async throws {
    try await withSpecs { try await $0.deleting_leavesNothing_andDeletingNothingIsFine() }
  }
  @Test func checkingWritability_leavesNoSessionBehind() async throws {
    try await withSpecs { try await $0.checkingWritability_leavesNoSessionBehind() }
  }
  @Test func serversAreIndependent() async throws {
    try await withSpecs { try await $0.serversAreIndependent() }
  }
  @Test func concurrentSaves_keepOneWholeSession() async throws {
    try await withSpecs { try await $0.concurrentSaves_keepOneWholeSession() }
  }

  @Test func location_namesTheAttributesToSearchFor() {
    let sut = LibsecretUserSessionDataStore(service: "app", server: "http://h:1")
    #expect(sut.location == "Secret Service (libsecret) item with service=app server=http://h:1")
  }

  private func withSpecs(_ body: (UserSessionDataStoreSpecs) async throws -> Void) async throws {
    let service = "app-tests-\(UUID().uuidString)"
    let server = "test-server"
    let specs = UserSessionDataStoreSpecs(
      makeStore: { LibsecretUserSessionDataStore(service: service, server: $0) }, server: server)
    do {
      try await body(specs)
    } catch {
      try? await LibsecretUserSessionDataStore(service: service, server: server).deleteUserSession()
      throw error
    }
    try await LibsecretUserSessionDataStore(service: service, server: server).deleteUserSession()
  }
}
