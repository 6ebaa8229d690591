import Backend
import Foundation
import PostgresNIO

extension PostgresBackendStore {
  package func allConversations(accountID: String) async throws -> [(
    name: String, messages: [MessageRecord]
  )] {
    var people: [(name: String, messages: [MessageRecord])] = []
    for (name, id, subject, text) in try await rows(
      PostgresStatements.AllConversations(accountID: accountID))
    {
      // Bytes, not `==`: names that differ in any byte are different people (the column's
      // "C" collation), where Swift's `==` would take canonically equal names as one.
      if people.last.map({ $0.name.utf8.elementsEqual(name.utf8) }) != true {
        people.append((name, []))
      }
      guard let id, let subject, let text else { continue }
      people[people.count - 1].messages.append(
        MessageRecord(id: id, accountID: accountID, person: name, subject: subject, text: text))
    }
    return people
  }

  package func conversation(accountID: String, with name: String) async throws -> [MessageRecord]? {
    try await conversation(accountID: accountID, with: name, on: nil)
  }

  package func addMessage(
    accountID: String, to name: String, subject: String, text: String
  ) async throws -> [MessageRecord] {
    try await rows(
      PostgresStatements.AddMessage(
        accountID: accountID, person: name, subject: subject, text: text)
    ).map { id, subject, text in
      MessageRecord(id: id, accountID: accountID, person: name, subject: subject, text: text)
    }
  }

  private func conversation(
    accountID: String, with name: String, on connection: PostgresConnection?
  ) async throws -> [MessageRecord]? {
    let found = try await rows(
      PostgresStatements.Conversation(accountID: accountID, person: name), on: connection)
    if !found.isEmpty { return found.map { Self.message($0, accountID: accountID) } }
    let known = try await rows(
      """
      SELECT EXISTS (SELECT 1 FROM conversation WHERE account_id = \(accountID) AND name = \(name))
      """, as: Bool.self, on: connection)
    return known.first == true ? [] : nil
  }

  /// The account's copy of the seeded conversations, made once: the row that marks it is
  /// inserted first, so a second instance asking at the same time waits for it, then finds
  /// it there.
  package func seedConversationsIfNeeded(accountID: String) async throws {
    if conversationsSeeded.withLock({ $0.contains(accountID) }) { return }
    try await transaction { connection in
      let marked = try await self.rows(
        """
        INSERT INTO conversations_seeded (account_id) VALUES (\(accountID))
        ON CONFLICT DO NOTHING RETURNING 1
        """, as: Int.self, on: connection)
      guard !marked.isEmpty else { return }
      for person in SeededConversations.people {
        try await self.execute(
          "INSERT INTO conversation (account_id, name) VALUES (\(accountID), \(person.name))",
          on: connection)
        for message in person.messages {
          try await self.execute(
            """
            INSERT INTO conversation_message (account_id, person, subject, text)
            VALUES (\(accountID), \(person.name), \(message.subject), \(message.text))
            """, on: connection)
        }
      }
    }
    conversationsSeeded.withLock { _ = $0.insert(accountID) }
  }

  private static func message(
    _ row: (Int64, String, String, String), accountID: String
  ) -> MessageRecord {
    MessageRecord(id: row.0, accountID: accountID, person: row.1, subject: row.2, text: row.3)
  }
}
