import Data
import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

/// Several accounts on one machine: each data folder's current account over one keyring
/// that keeps every account's session, on a keyring in memory and on the real Secret
/// Service (under CI=true a missing one fails instead of skipping).
@Suite(.timeLimit(.minutes(1)))
struct CurrentAccountSessionStoreTests {
  @Test func twoFolders_areTwoPeople_andASecondLoginKeepsTheFirst() async throws {
    try await withFolders(MemoryKeyring()) { folder in
      let ana = folder("a")
      let ben = folder("b")
      try await ana.save(session("ana"))
      try await ben.save(session("ben"))

      #expect(try await ana.readUserSession() == session("ana"), "ben did not sign ana out")
      #expect(try await ben.readUserSession() == session("ben"))
      try await ana.save(session("carl"))
      #expect(try await ana.signedInUsername() == "carl")
      #expect(try await ana.keptAccounts() == ["ana", "ben", "carl"])
      #expect(try await ana.switchAccount(to: "ana"))
      #expect(try await ana.readUserSession() == session("ana"))
      #expect(try await !ana.switchAccount(to: "zed"))
      #expect(try await ana.signedInUsername() == "ana", "a refused switch changes nothing")
    }
  }

  @Test func logout_endsTheCurrentAccountOnly_andTheFolderStaysSignedOut() async throws {
    try await withFolders(MemoryKeyring()) { folder in
      let ana = folder("a")
      let ben = folder("b")
      try await ana.save(session("ana"))
      try await ben.save(session("ben"))

      try await ana.deleteUserSession()

      #expect(try await ana.readUserSession() == nil, "never ben's: he is somebody else")
      #expect(try await ben.readUserSession() == session("ben"))
      #expect(try await ana.keptAccounts() == ["ben"])
      try await ben.deleteAllUserSessions()
      #expect(try await ben.keptAccounts().isEmpty)
    }
  }

  @Test func aSessionKeptByAnEarlierVersion_isStillFound() async throws {
    let keyring = MemoryKeyring()
    try await keyring.store(session("ana"))
    try await withFolders(keyring) { folder in
      let found = try await folder("old").readUserSession()
      #expect(found == session("ana"))
    }
  }

  @Test(.enabled(if: TestKeyring.shouldTest, "no Secret Service (CI=true makes this a failure)"))
  func onTheSecretService_twoFoldersAreTwoPeople() async throws {
    let keyring = LibsecretUserSessionDataStore(
      service: "app-tests-\(UUID().uuidString)", server: "test-server")
    try await withFolders(keyring) { folder in
      let ana = folder("a")
      let ben = folder("b")
      try await ana.save(session("ana"))
      try await ben.save(session("ben"))
      #expect(try await ana.readUserSession() == session("ana"))
      #expect(try await ben.readUserSession() == session("ben"))
      try await ana.deleteUserSession()
      #expect(try await ana.readUserSession() == nil)
      #expect(try await ben.readUserSession() == session("ben"))
      try await ben.deleteAllUserSessions()
    }
  }

  private func session(_ username: String) -> RemoteUserSession {
    RemoteUserSession(username: username, accessToken: AccessToken("token-of-\(username)"))
  }

  private func withFolders(
    _ keyring: any AccountKeyring,
    _ body: (_ folder: (String) -> CurrentAccountSessionStore) async throws -> Void
  ) async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "current-account-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try await body { name in
      let folder = root.appendingPathComponent(name)
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      return CurrentAccountSessionStore(
        keyring: keyring,
        current: CurrentAccountFile(url: folder.appendingPathComponent("accounts.json")),
        server: "test-server")
    }
  }
}

/// An `AccountKeyring` in memory.
private final class MemoryKeyring: AccountKeyring {
  private let sessions = Mutex<[String: RemoteUserSession]>([:])

  var location: String { "memory" }
  var retention: String? { nil }

  func accounts() async throws -> [String] { sessions.withLock { $0.keys.sorted() } }

  func readSession(account: String) async throws -> RemoteUserSession? {
    sessions.withLock { $0[account] }
  }

  func store(_ session: RemoteUserSession) async throws {
    sessions.withLock { $0[session.username] = session }
  }

  func deleteSession(account: String) async throws {
    _ = sessions.withLock { $0.removeValue(forKey: account) }
  }

  func checkWritable() async throws {}
}
