import Backend
import Foundation
import PostgresNIO

// Messages, as the SQLite store keeps them (`BackendDatabase+Messages`): the account's own
// conversations, and the one it shares with each match (`talk_message`).
extension PostgresBackendStore {
  package func allConversations(accountID: String) async throws -> [(
    name: String, messages: [MessageRecord]
  )] {
    try await allConversations(accountID: accountID, on: nil)
  }

  /// One statement: a snapshot of its own.
  package func conversationsVersion(accountID: String) async throws -> ConversationsVersion {
    try await conversationsVersion(accountID: accountID, on: nil)
  }

  /// The version and the conversations in one read-only transaction, from one snapshot.
  package func versionedConversations(accountID: String) async throws -> (
    version: ConversationsVersion, conversations: [(name: String, messages: [MessageRecord])]
  ) {
    try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY") {
      connection in
      (
        try await self.conversationsVersion(accountID: accountID, on: connection),
        try await self.allConversations(accountID: accountID, on: connection)
      )
    }
  }

  private func conversationsVersion(accountID: String, on connection: PostgresConnection?)
    async throws -> ConversationsVersion
  {
    let (ownPeople, ownMessages, newestOwn, shared, newestShared) = try await rows(
      PostgresStatements.ConversationsVersion(accountID: accountID), on: connection)[0]
    return ConversationsVersion(
      ownPeople: ownPeople, ownMessages: ownMessages, newestOwnMessage: newestOwn,
      sharedMessages: shared, newestSharedMessage: newestShared)
  }

  private func allConversations(accountID: String, on connection: PostgresConnection?)
    async throws -> [(name: String, messages: [MessageRecord])]
  {
    var people: [(name: String, messages: [MessageRecord])] = []
    for (name, id, subject, text, fromMe, sentAt) in try await rows(
      PostgresStatements.AllConversations(accountID: accountID), on: connection)
    {
      // Bytes, not `==`: names that differ in any byte are different people (the column's
      // "C" collation), where Swift's `==` would take canonically equal names as one.
      if people.last.map({ $0.name.utf8.elementsEqual(name.utf8) }) != true {
        people.append((name, []))
      }
      guard let id, let subject, let text else { continue }
      people[people.count - 1].messages.append(
        MessageRecord(
          id: id, accountID: accountID, person: name, subject: subject, text: text,
          fromMe: fromMe, sentAt: sentAt))
    }
    return MessageRecord.conversations(
      own: people, shared: try await sharedMessages(of: accountID, on: connection))
  }

  package func conversation(accountID: String, with name: String) async throws -> [MessageRecord]? {
    if let match = try await matchedAccount(username: name, of: accountID, on: nil) {
      return try await sharedConversation(of: accountID, with: match, on: nil)
    }
    return try await ownConversation(accountID: accountID, with: name, on: nil)
  }

  /// To a match in one statement (`sendToMatch`), which locks the sender's matched row:
  /// an unmatch or a block, which ends that row under the pair's lock, comes before, and
  /// the message is refused, or after, and it goes with the conversation.
  package func addMessage(
    from account: AccountRecord, to name: String, subject: String, text: String, now: Date
  ) async throws -> MessageDelivery {
    let sentAt = Int(now.timeIntervalSince1970)
    if let match = try await matchedAccount(username: name, of: account.id, on: nil),
      let messages = try await sendToMatch(
        match, from: account.id, subject: subject, text: text, sentAt: sentAt)
    {
      eventSignal.signal(match.id)
      return .stored(messages)
    }
    return try await transaction { connection in
      guard try await self.talksWith(name, accountID: account.id, on: connection) else {
        return .notAMatch
      }
      try await self.execute(
        """
        INSERT INTO conversation (account_id, name) VALUES (\(account.id), \(name))
        ON CONFLICT DO NOTHING
        """, on: connection)
      let earlier =
        try await self.ownConversation(accountID: account.id, with: name, on: connection) ?? []
      let id = try await self.rows(
        """
        INSERT INTO conversation_message (account_id, person, subject, text, from_me, sent_at)
        VALUES (\(account.id), \(name), \(subject), \(text), true, \(sentAt)) RETURNING id
        """, as: Int64.self, on: connection)[0]
      return .stored(
        earlier + [
          MessageRecord(
            id: id, accountID: account.id, person: name, subject: subject, text: text,
            fromMe: true, sentAt: sentAt)
        ])
    }
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

  /// The two ids in the order `talk_message` keeps a pair in.
  static func pair(_ one: String, _ other: String) -> (low: String, high: String) {
    one < other ? (one, other) : (other, one)
  }

  /// Makes whatever else is decided about the two accounts in this transaction wait for it:
  /// a like each way, a message and an unmatch, from any instance.
  func lockPair(_ one: String, _ other: String, on connection: PostgresConnection) async throws {
    let (low, high) = Self.pair(one, other)
    try await execute(
      "SELECT pg_advisory_xact_lock(hashtextextended(\(low + " " + high), 0))", on: connection)
  }

  /// The account called `username` when it is a match of `accountID`'s.
  private func matchedAccount(
    username: String, of accountID: String, on connection: PostgresConnection?
  ) async throws -> AccountRecord? {
    try await rows(
      PostgresStatements.MatchedAccount(username: username, accountID: accountID),
      on: connection
    ).first.map(AccountRecord.init)
  }

  private func talksWith(_ name: String, accountID: String, on connection: PostgresConnection)
    async throws -> Bool
  {
    try await rows(
      """
      SELECT EXISTS (SELECT 1 FROM conversation WHERE account_id = \(accountID) AND name = \(name))
        OR EXISTS (
          SELECT 1 FROM incoming_like l WHERE l.account_id = \(accountID)
            AND l.status = 'matched' AND l.user_name = \(name)
            AND NOT EXISTS (SELECT 1 FROM account a WHERE a.id = l.id))
      """, as: Bool.self, on: connection
    ).first == true
  }

  /// Adds the message to the pair's conversation while they are still a match, with the
  /// receiver's `message` event and its notification, and returns the conversation after
  /// it; nil once they are not a match. One prepared statement (`PostgresStatements.
  /// SendToMatch`), one round trip, where there were six under the pair's advisory lock.
  private func sendToMatch(
    _ match: AccountRecord, from authorID: String, subject: String, text: String, sentAt: Int
  ) async throws -> [MessageRecord]? {
    let (low, high) = Self.pair(authorID, match.id)
    let found = try await rows(
      PostgresStatements.SendToMatch(
        receiverID: match.id, authorID: authorID, low: low, high: high, subject: subject,
        text: text, sentAt: sentAt, notificationChannel: notificationChannel))
    guard let id = found.first?.0 else { return nil }
    let earlier = found.compactMap { _, id, fromMe, subject, text, sentAt -> MessageRecord? in
      guard let id, let fromMe, let subject, let text, let sentAt else { return nil }
      return MessageRecord(
        id: id, accountID: authorID, person: match.username, subject: subject, text: text,
        fromMe: fromMe, sentAt: sentAt)
    }
    return earlier + [
      MessageRecord(
        id: id, accountID: authorID, person: match.username, subject: subject, text: text,
        fromMe: true, sentAt: sentAt)
    ]
  }

  private func sharedConversation(
    of accountID: String, with match: AccountRecord, on connection: PostgresConnection?
  ) async throws -> [MessageRecord] {
    let (low, high) = Self.pair(accountID, match.id)
    return try await rows(
      """
      SELECT id, author_id, subject, text, sent_at FROM talk_message
      WHERE low_id = \(low) AND high_id = \(high) ORDER BY id
      """, as: (Int64, String, String, String, Int).self, on: connection
    ).map { id, author, subject, text, sentAt in
      MessageRecord(
        id: id, accountID: accountID, person: match.username, subject: subject, text: text,
        fromMe: author == accountID, sentAt: sentAt)
    }
  }

  private func sharedMessages(of accountID: String, on connection: PostgresConnection?)
    async throws -> [MessageRecord]
  {
    try await rows(PostgresStatements.SharedMessages(accountID: accountID), on: connection).map {
      id, author, subject, text, sentAt, person in
      MessageRecord(
        id: id, accountID: accountID, person: person, subject: subject, text: text,
        fromMe: author == accountID, sentAt: sentAt)
    }
  }

  private func ownConversation(
    accountID: String, with name: String, on connection: PostgresConnection?
  ) async throws -> [MessageRecord]? {
    let found = try await rows(
      PostgresStatements.Conversation(accountID: accountID, person: name), on: connection)
    if !found.isEmpty {
      return found.map {
        MessageRecord(
          id: $0.0, accountID: accountID, person: $0.1, subject: $0.2, text: $0.3, fromMe: $0.4,
          sentAt: $0.5)
      }
    }
    let known = try await rows(
      """
      SELECT EXISTS (SELECT 1 FROM conversation WHERE account_id = \(accountID) AND name = \(name))
      """, as: Bool.self, on: connection)
    return known.first == true ? [] : nil
  }
}
