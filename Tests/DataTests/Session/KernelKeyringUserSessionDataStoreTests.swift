import Data
import Domain
import Foundation
import TestSupport
import Testing

/// The store contract against the kernel's own keyring (this user's persistent keyring).
/// Each test uses its own `service` and `server`, and deletes what it stored. Under CI=true
/// a kernel or container that refuses keyrings fails these tests instead of skipping them.
@Suite(
  .timeLimit(.minutes(1)),
  .enabled(if: KernelKeyctl.shouldTest, "no kernel keyring (CI=true makes this a failure)"))
struct KernelKeyringUserSessionDataStoreTests {
  @Test func readsNothing_whenEmpty() async throws {
    try await withSpecs { specs, _ in try await specs.readsNothing_whenEmpty() }
  }
  @Test func readsWhatWasSaved() async throws {
    try await withSpecs { specs, _ in try await specs.readsWhatWasSaved() }
  }
  @Test func savingTheSameAccountAgain_keepsTheNewToken() async throws {
    try await withSpecs { specs, _ in try await specs.savingTheSameAccountAgain_keepsTheNewToken() }
  }
  @Test func savingAnotherAccount_replacesTheFirst() async throws {
    try await withSpecs { specs, _ in try await specs.savingAnotherAccount_replacesTheFirst() }
  }
  @Test func deleting_leavesNothing_andDeletingNothingIsFine() async throws {
    try await withSpecs { specs, _ in
      try await specs.deleting_leavesNothing_andDeletingNothingIsFine()
    }
  }
  @Test func checkingWritability_leavesNoSessionBehind() async throws {
    try await withSpecs { specs, _ in try await specs.checkingWritability_leavesNoSessionBehind() }
  }
  @Test func serversAreIndependent() async throws {
    try await withSpecs { specs, _ in try await specs.serversAreIndependent() }
  }
  @Test func concurrentSaves_keepOneWholeSession() async throws {
    try await withSpecs { specs, _ in try await specs.concurrentSaves_keepOneWholeSession() }
  }

  /// What `keyctl` shows: one `user` key whose description names the app, the server and
  /// the account, holding the token; nothing once signed out.
  @Test func keyctl_seesOneKeyNamingTheServerAndAccount_untilDeleted() async throws {
    try await withSpecs { _, service in
      let server = "test-server"
      let sut = KernelKeyringUserSessionDataStore(service: service, server: server)
      try await sut.save(RemoteUserSession(username: "alice", accessToken: AccessToken("t-1")))
      try await sut.save(RemoteUserSession(username: "bob", accessToken: AccessToken("t-2")))

      let keys = try KernelKeyctl.keys(service: service, server: server)
      #expect(keys.map(\.description) == ["\(service) session server=\(server) account=bob"])
      #expect(keys.map(\.payload) == ["t-2"])

      try await sut.deleteUserSession()
      #expect(try KernelKeyctl.keys(service: service, server: server).isEmpty)
    }
  }

  @Test func location_andRetention_nameTheKernelKeyringAndItsExpiry() throws {
    let sut = KernelKeyringUserSessionDataStore(service: "app", server: "http://h:1")
    #expect(sut.location.hasPrefix("kernel keyring (the user's persistent keyring)"))
    #expect(sut.location.hasSuffix("service=app server=http://h:1"))
    let expiry = try String(
      contentsOfFile: "/proc/sys/kernel/keys/persistent_keyring_expiry", encoding: .utf8)
    let seconds = try #require(Int(expiry.trimmingCharacters(in: .whitespacesAndNewlines)))
    let retention = try #require(sut.retention)
    #expect(retention.contains("until the machine restarts"))
    if seconds % 86_400 == 0 && seconds > 86_400 {
      #expect(retention.contains("for \(seconds / 86_400) days"), "\(retention)")
    }
  }

  private func withSpecs(
    _ body: (UserSessionDataStoreSpecs, String) async throws -> Void
  ) async throws {
    let service = "app-tests-\(UUID().uuidString)"
    let server = "test-server"
    let specs = UserSessionDataStoreSpecs(
      makeStore: { KernelKeyringUserSessionDataStore(service: service, server: $0) },
      server: server)
    do {
      try await body(specs, service)
    } catch {
      try? await cleanUp(service: service, servers: [server, server + "-other"])
      throw error
    }
    try await cleanUp(service: service, servers: [server, server + "-other"])
  }

  private func cleanUp(service: String, servers: [String]) async throws {
    for server in servers {
      try await KernelKeyringUserSessionDataStore(service: service, server: server)
        .deleteUserSession()
    }
  }
}
