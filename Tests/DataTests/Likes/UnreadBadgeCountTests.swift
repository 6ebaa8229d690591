import Data
import Domain
import Foundation
import Testing

/// The unread badge on one data folder, as every client on it shares it: each like is
/// counted once by its event's number, however many shells and watches hear of it, and
/// the count starts again for a server whose events were reset or a new account.
@Suite(.timeLimit(.minutes(1))) struct UnreadBadgeCountTests {
  @Test func likesHeardByTwoClientsOnOneFile_areEachCountedOnce() async throws {
    try await withTemporaryCacheFile { file in
      // Two connections to one file, as two `app` processes open it.
      let (first, _) = try await AppDatabase.open(at: file)
      let (second, _) = try await AppDatabase.open(at: file)
      let clients = [first, second].map {
        GRDBNotificationCenterStateStore(database: $0, account: "alice")
      }

      // Each hears every event in order, as its own watch delivers them; the two race.
      try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients {
          group.addTask {
            for seq in 101...160 { _ = try await client.countLike(seq: seq, unkept: 0) }
          }
        }
        try await group.waitForAll()
      }

      #expect(try await clients[0].unreadCount() == 60)
      #expect(try await clients[1].unreadCount() == 60)
    }
  }

  @Test func likesKeptInMemoryMeanwhile_areAdded_whoeverCountedTheEvent() async throws {
    let badge = GRDBNotificationCenterStateStore(
      database: try AppDatabase.inMemory(), account: "alice")
    #expect(try await badge.countLike(seq: 5, unkept: 0) == 1)

    #expect(
      try await badge.countLike(seq: 5, unkept: 2) == 3,
      "the event was counted; the two this run could not keep were not")
  }

  @Test func eventsThatStandBelowTheCounted_wereReset_andTheBadgeStartsAgain() async throws {
    let badge = GRDBNotificationCenterStateStore(
      database: try AppDatabase.inMemory(), account: "alice")
    for seq in 20...24 { _ = try await badge.countLike(seq: seq, unkept: 0) }

    #expect(try await badge.eventsStand(at: 30) == 5, "the server went on: nothing changes")
    #expect(try await badge.eventsStand(at: 3) == 0, "a new database: the count starts again")
    #expect(try await badge.countLike(seq: 4, unkept: 0) == 1, "counted from the new last")
    #expect(try await badge.countLike(seq: 4, unkept: 0) == 1)
  }

  @Test func anotherAccountOfTheSameName_startsTheBadgeAgain() async throws {
    let badge = GRDBNotificationCenterStateStore(
      database: try AppDatabase.inMemory(), account: "alice")
    #expect(try await badge.countsLikes(ofAccount: "id-1") == false, "the first it counts for")
    for seq in 1...3 { _ = try await badge.countLike(seq: seq, unkept: 0) }
    #expect(try await badge.countsLikes(ofAccount: "id-1") == false)
    #expect(try await badge.unreadCount() == 3)

    #expect(try await badge.countsLikes(ofAccount: "id-2") == true)
    #expect(try await badge.unreadCount() == 0)
    #expect(
      try await badge.countLike(seq: 2, unkept: 0) == 1,
      "the new account's events are numbered afresh")
  }
}
