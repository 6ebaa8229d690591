import Foundation
import TestSupport
import Testing

@testable import Backend

/// The contract against the PostgreSQL store, on a database of the throwaway test cluster,
/// with notifications and without.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresBackendStoreTests {
  static let stores: [String] = ["notifications", "no notifications"]

  @Test(arguments: stores) func accountsAndTokens(_ kind: String) async throws {
    try await PostgresStores.with(notifications: kind == "notifications") {
      try await BackendStoreContract.aUsernameIsTakenOnce_andTokensOpenTheirAccountUntilTheyExpire(
        $0)
    }
  }
  @Test(arguments: stores) func seedingOnce(_ kind: String) async throws {
    try await PostgresStores.with(notifications: kind == "notifications") {
      try await BackendStoreContract.likesAreSeededOnce_evenWhenAskedAtTheSameTime($0)
    }
  }
  @Test(arguments: stores) func likeBackAndSkip(_ kind: String) async throws {
    try await PostgresStores.with(notifications: kind == "notifications") {
      try await BackendStoreContract
        .aLikeBack_isAMutualAndAnEvent_aSkipIsNeither_whateverTheCaseOfTheID($0)
    }
  }
  @Test(arguments: stores) func madeUpLikes(_ kind: String) async throws {
    try await PostgresStores.with(notifications: kind == "notifications") {
      try await BackendStoreContract.madeUpLikes_arriveAsEvents_inOrder_andAFollowerMissesNone($0)
    }
  }
  @Test(arguments: stores) func messages(_ kind: String) async throws {
    try await PostgresStores.with(notifications: kind == "notifications") {
      try await BackendStoreContract.messages_keepTheirOrder_andAnUnknownPersonIsNil($0)
    }
  }
  @Test(arguments: stores) func signInFailures(_ kind: String) async throws {
    try await PostgresStores.with(notifications: kind == "notifications") {
      try await BackendStoreContract.signInFailures_areKeptPerKey_updatedInOneWrite_andForgotten($0)
    }
  }
  @Test(arguments: stores) func push(_ kind: String) async throws {
    try await PostgresStores.with(notifications: kind == "notifications") {
      try await BackendStoreContract.pushRegistrations_followTheirDevice($0)
    }
  }
}
