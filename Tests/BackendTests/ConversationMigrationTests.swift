import Foundation
import GRDB
import Testing

@testable import Backend

/// Migration v6 on a file from before it, when every account shared one set of conversations.
@Suite(.timeLimit(.minutes(1))) struct ConversationMigrationTests {
  @Test func theSharedConversations_becomeTheDemoAccounts_andNobodyElses() throws {
    let queue = try DatabaseQueue()
    try BackendDatabase.migrator.migrate(queue, upTo: "v5: push registration")
    try queue.write { db in
      for (id, username) in [("demo-id", "demo"), ("other-id", "other")] {
        try AccountRecord(id: id, username: username, name: username, passwordHash: "x")
          .insert(db)
      }
      try db.execute(sql: "INSERT INTO person (name) VALUES ('Sent before v6')")
      try db.execute(
        sql: "INSERT INTO message (person, subject, text) VALUES ('Sent before v6', 's', 't')")
    }

    let database = try BackendDatabase(queue)

    let demos = try database.allConversations(accountID: "demo-id")
    #expect(try database.allConversations(accountID: "other-id").isEmpty, "nothing invented yet")
    try database.seedConversationsIfNeeded(accountID: "other-id")
    let others = try database.allConversations(accountID: "other-id")
    #expect(demos.first { $0.name == "Sent before v6" }?.messages.map(\.text) == ["t"])
    #expect(demos.contains { $0.name == "john" }, "the demo account keeps the seeds it had")
    #expect(!others.contains { $0.name == "Sent before v6" })
    #expect(others.contains { $0.name == "john" }, "another account gets its own seeds")
    #expect(Set(demos.map(\.name)) == Set(others.map(\.name) + ["Sent before v6"]))
  }

  @Test func aNewFile_givesTheDemoAccountTheSeeds_once() throws {
    let database = try BackendDatabase.inMemory()
    try database.writer.write { db in
      try AccountRecord(id: "demo-id", username: "demo", name: "Demo", passwordHash: "x")
        .insert(db)
    }

    try database.seedConversationsIfNeeded(accountID: "demo-id")
    let first = try database.allConversations(accountID: "demo-id")
    try database.seedConversationsIfNeeded(accountID: "demo-id")
    let second = try database.allConversations(accountID: "demo-id")

    #expect(first.count == SeededConversations.people.count)
    #expect(second.map(\.name) == first.map(\.name))
    #expect(second.flatMap(\.messages).count == first.flatMap(\.messages).count)
  }
}
