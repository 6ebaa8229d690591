import Foundation
import TestSupport
import Testing

@testable import Backend

/// Section 5's contract against the SQLite store, in memory and in a file.
@Suite(.timeLimit(.minutes(1))) struct SQLitePeopleStoreTests {
  static let stores = SQLiteBackendStoreTests.stores

  @Test(arguments: stores) func matchAndTalk(_ kind: String) async throws {
    try await PeopleStoreContract.aLikeBack_isAMatchForBoth_andMatchesTalkInOneConversation(
      SQLiteBackendStoreTests.store(kind))
  }
  @Test(arguments: stores) func unmatch(_ kind: String) async throws {
    try await PeopleStoreContract.anUnmatch_endsTheConversationForBoth_andTellsTheOther(
      SQLiteBackendStoreTests.store(kind))
  }
  @Test(arguments: stores) func block(_ kind: String) async throws {
    try await PeopleStoreContract.aBlock_makesTheBlockerUnknown_andTellsNothingMore(
      SQLiteBackendStoreTests.store(kind))
  }
  @Test(arguments: stores) func pass(_ kind: String) async throws {
    try await PeopleStoreContract.aPass_isNeverTold_andHidesThePersonFromThePasser(
      SQLiteBackendStoreTests.store(kind))
  }
  @Test(arguments: stores) func sendRacingUnmatch(_ kind: String) async throws {
    try await PeopleStoreContract.aSendRacingAnUnmatch_leavesNothingHalfStored(
      SQLiteBackendStoreTests.store(kind))
  }
  @Test(arguments: stores) func likesAtOnce(_ kind: String) async throws {
    try await PeopleStoreContract.likesBothWaysAtOnce_areOneMatch(
      SQLiteBackendStoreTests.store(kind))
  }
  @Test(arguments: stores) func conversationsVersion(_ kind: String) async throws {
    try await PeopleStoreContract
      .theConversationsVersion_movesWithEveryChangeOfWhatMessagesReads(
        SQLiteBackendStoreTests.store(kind))
  }
  @Test(arguments: stores) func pagesByKey(_ kind: String) async throws {
    try await PeopleStoreContract
      .aPageFromARememberedStart_isThePageByOffset_andGoesOnWhereTheLastEnded(
        SQLiteBackendStoreTests.store(kind))
  }
}

/// Section 5's contract against the PostgreSQL store, on the throwaway test cluster.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresPeopleStoreTests {
  @Test func matchAndTalk() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract.aLikeBack_isAMatchForBoth_andMatchesTalkInOneConversation($0)
    }
  }
  /// A message's notice is part of its statement; without notifications the statement
  /// still writes the message and its event.
  @Test func matchAndTalk_withoutNotifications() async throws {
    try await PostgresStores.with(notifications: false) {
      try await PeopleStoreContract.aLikeBack_isAMatchForBoth_andMatchesTalkInOneConversation($0)
    }
  }
  @Test func unmatch() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract.anUnmatch_endsTheConversationForBoth_andTellsTheOther($0)
    }
  }
  @Test func block() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract.aBlock_makesTheBlockerUnknown_andTellsNothingMore($0)
    }
  }
  @Test func pass() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract.aPass_isNeverTold_andHidesThePersonFromThePasser($0)
    }
  }
  @Test func sendRacingUnmatch() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract.aSendRacingAnUnmatch_leavesNothingHalfStored($0)
    }
  }
  @Test func likesAtOnce() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract.likesBothWaysAtOnce_areOneMatch($0)
    }
  }
  @Test func conversationsVersion() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract
        .theConversationsVersion_movesWithEveryChangeOfWhatMessagesReads($0)
    }
  }
  @Test func pagesByKey() async throws {
    try await PostgresStores.with(notifications: true) {
      try await PeopleStoreContract
        .aPageFromARememberedStart_isThePageByOffset_andGoesOnWhereTheLastEnded($0)
    }
  }
}
