import Backend
import Foundation
import PostgresNIO

extension PostgresBackendStore {
  package func allConversations(accountID: String) async throws -> [(
    name: String, messages: [MessageRecord]
  )] {
    try await seedConversationsIfNeeded(accountID: accountID)
    let people = try await rows(
      "SELECT name FROM conversation WHERE account_id = \(accountID) ORDER BY name",
      as: String.self)
    let messages = try await rows(
      """
      SELECT id, person, subject, text FROM conversation_message
      WHERE account_id = \(accountID) ORDER BY id
      """, as: (Int64, String, String, String).self)
    let byPerson = Dictionary(
      grouping: messages.map { Self.message($0, accountID: accountID) }, by: \.person)
    return people.map { ($0, byPerson[$0] ?? []) }
  }

  package func conversation(accountID: String, with name: String) async throws -> [MessageRecord]? {
    try await seedConversationsIfNeeded(accountID: accountID)
    return try await conversation(accountID: accountID, with: name, on: nil)
  }

  package func addMessage(
    accountID: String, to name: String, subject: String, text: String
  ) async throws -> [MessageRecord] {
    try await seedConversationsIfNeeded(accountID: accountID)
    return try await transaction { connection in
      try await self.execute(
        """
        INSERT INTO conversation (account_id, name) VALUES (\(accountID), \(name))
        ON CONFLICT DO NOTHING
        """, on: connection)
      let earlier =
        try await self.conversation(accountID: accountID, with: name, on: connection) ?? []
      let id = try await self.rows(
        """
        INSERT INTO conversation_message (account_id, person, subject, text)
        VALUES (\(accountID), \(name), \(subject), \(text)) RETURNING id
        """, as: Int64.self, on: connection)
      return earlier + [
        MessageRecord(
          id: id.first, accountID: accountID, person: name, subject: subject, text: text)
      ]
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
  private func seedConversationsIfNeeded(accountID: String) async throws {
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
