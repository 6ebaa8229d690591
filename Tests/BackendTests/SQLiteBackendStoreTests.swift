import Foundation
import Testing

@testable import Backend

/// The contract against the SQLite store, in memory and in a file.
@Suite(.timeLimit(.minutes(1))) struct SQLiteBackendStoreTests {
  static let stores: [String] = ["memory", "file"]

  /// A fresh store of each kind: in memory, or in a file of its own (`SQLitePeopleStoreTests`
  /// takes them too).
  static func store(_ kind: String) async throws -> BackendDatabase {
    guard kind == "file" else { return try BackendDatabase.inMemory() }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "backend-store-\(UUID().uuidString)/backend.sqlite")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    return try await BackendDatabase.open(at: file)
  }

  @Test(arguments: stores) func accountsAndTokens(_ kind: String) async throws {
    try await BackendStoreContract.aUsernameIsTakenOnce_andTokensOpenTheirAccountUntilTheyExpire(
      Self.store(kind))
  }
  @Test(arguments: stores) func seedingOnce(_ kind: String) async throws {
    try await BackendStoreContract.likesAreSeededOnce_evenWhenAskedAtTheSameTime(Self.store(kind))
  }
  @Test(arguments: stores) func likeBackAndSkip(_ kind: String) async throws {
    try await BackendStoreContract
      .aLikeBack_isAMutualAndAnEvent_aSkipIsNeither_whateverTheCaseOfTheID(Self.store(kind))
  }
  @Test(arguments: stores) func madeUpLikes(_ kind: String) async throws {
    try await BackendStoreContract.madeUpLikes_arriveAsEvents_inOrder_andAFollowerMissesNone(
      Self.store(kind))
  }
  @Test(arguments: stores) func messages(_ kind: String) async throws {
    try await BackendStoreContract.messages_keepTheirOrder_andAnUnknownPersonIsNil(Self.store(kind))
  }
  @Test(arguments: stores) func signInFailures(_ kind: String) async throws {
    try await BackendStoreContract.signInFailures_areKeptPerKey_updatedInOneWrite_andForgotten(
      Self.store(kind))
  }
  @Test(arguments: stores) func push(_ kind: String) async throws {
    try await BackendStoreContract.pushRegistrations_followTheirDevice(Self.store(kind))
  }
}
