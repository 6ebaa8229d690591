import Foundation
import GRDB
import Testing

@testable import Backend

/// Migration v9 (people meet) on a file from before it: every row stays, and the accounts
/// that were there can meet, in the order they joined.
@Suite(.timeLimit(.minutes(1))) struct PeopleMigrationTests {
  @Test func likesEventsAndConversations_stay_andTheAccountsThereMeet() throws {
    let queue = try DatabaseQueue()
    try BackendDatabase.migrator.migrate(queue, upTo: "v8: like order indexes")
    try queue.write { db in
      for (id, username) in [("ana-id", "ana"), ("ben-id", "ben")] {
        try db.execute(
          sql: "INSERT INTO account (id, username, name, passwordHash) VALUES (?, ?, ?, 'x')",
          arguments: [id, username, username.capitalized])
      }
      try db.execute(
        sql: """
          INSERT INTO incomingLike (id, accountID, userName, avatarURL, seq, status, matchedSeq)
          VALUES ('like-1', 'ana-id', 'Ava K.', NULL, 1, 'pending', NULL),
                 ('like-2', 'ana-id', 'Liam B.', 'https://a/2.png', 2, 'matched', 3)
          """)
      try db.execute(
        sql:
          "INSERT INTO likeEvent (accountID, type, likeID) VALUES ('ana-id', 'mutualMatch', 'like-2')"
      )
      try db.execute(sql: "INSERT INTO conversation (accountID, name) VALUES ('ana-id', 'john')")
      try db.execute(
        sql: """
          INSERT INTO conversationMessage (accountID, person, subject, text)
          VALUES ('ana-id', 'john', 'pets', 'cats are grumpy')
          """)
    }

    let database = try BackendDatabase(queue)

    let pending = try database.pendingLikes(accountID: "ana-id", page: 1, batchSize: 10)
    #expect(pending.likes == [IncomingLike(id: "like-1", userName: "Ava K.", avatarURL: nil)])
    #expect(try database.mutuals(accountID: "ana-id").map(\.id) == ["like-2"])
    let events = try database.events(accountID: "ana-id", after: 0)
    #expect(events.events.map(\.person.userName) == ["Liam B."] && events.last == 1)
    let john = try database.conversation(accountID: "ana-id", with: "john")
    #expect(john?.map(\.text) == ["cats are grumpy"])
    #expect(john?.first?.fromMe == nil, "who wrote it before v9 is not known")
    // Talking with an invented person goes on; the invented match may be written to.
    let ana = try #require(try database.account(username: "ana"))
    let toMatch = try database.addMessage(
      from: ana, to: "Liam B.", subject: "s", text: "t", now: Date())
    #expect(toMatch != .notAMatch)

    _ = try database.createAccount(
      AccountRecord(id: "cy-id", username: "cy", name: "Cy", passwordHash: "x"))
    let people = try database.people(accountID: "ana-id", from: .offset(0), batchSize: 10).people
    #expect(people.map(\.userName) == ["cy", "ben"], "newest first, those before in their order")
  }
}
