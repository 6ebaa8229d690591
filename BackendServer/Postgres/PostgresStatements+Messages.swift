import PostgresNIO

/// The statements of messages: conversations read, their version, a message sent.
extension PostgresStatements {
  /// One conversation's messages, in the order they came.
  struct Conversation: PostgresPreparedStatement {
    static let name = "Conversation"
    static let sql = """
      SELECT id, person, subject, text, from_me, sent_at FROM conversation_message
      WHERE account_id = $1 AND person = $2 ORDER BY id
      """
    typealias Row = (Int64, String, String, String, Bool?, Int?)

    var accountID: String
    var person: String

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 2)
      bindings.append(accountID)
      bindings.append(person)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      try row.decode(Row.self)
    }
  }

  /// Every person of an account's conversations with their messages, in one round trip: a
  /// person with no messages is one row of NULLs. People in name order, messages in the
  /// order they came, all from one snapshot.
  struct AllConversations: PostgresPreparedStatement {
    static let name = "AllConversations"
    static let sql = """
      SELECT c.name, m.id, m.subject, m.text, m.from_me, m.sent_at FROM conversation c
      LEFT JOIN conversation_message m ON m.account_id = c.account_id AND m.person = c.name
      WHERE c.account_id = $1 ORDER BY c.name, m.id
      """
    typealias Row = (String, Int64?, String?, String?, Bool?, Int?)

    var accountID: String

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 1)
      bindings.append(accountID)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      try row.decode(Row.self)
    }
  }

  /// Every message of an account's conversations with its matches, in the order they came,
  /// with the other account's username.
  struct SharedMessages: PostgresPreparedStatement {
    static let name = "SharedMessages"
    static let sql = """
      SELECT m.id, m.author_id, m.subject, m.text, m.sent_at, o.username FROM talk_message m
      JOIN account o ON o.id = m.high_id WHERE m.low_id = $1
      UNION ALL
      SELECT m.id, m.author_id, m.subject, m.text, m.sent_at, o.username FROM talk_message m
      JOIN account o ON o.id = m.low_id WHERE m.high_id = $1
      ORDER BY 1
      """
    typealias Row = (Int64, String, String, String, Int, String)

    var accountID: String

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 1)
      bindings.append(accountID)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      try row.decode(Row.self)
    }
  }

  /// The account's `ConversationsVersion`: counts and newest ids, from the indexes.
  struct ConversationsVersion: PostgresPreparedStatement {
    static let name = "ConversationsVersion"
    static let sql = """
      SELECT
        (SELECT COUNT(*) FROM conversation WHERE account_id = $1),
        (SELECT COUNT(*) FROM conversation_message WHERE account_id = $1),
        (SELECT COALESCE(MAX(id), 0) FROM conversation_message WHERE account_id = $1),
        (SELECT COUNT(*) FROM talk_message WHERE low_id = $1)
          + (SELECT COUNT(*) FROM talk_message WHERE high_id = $1),
        GREATEST(
          (SELECT COALESCE(MAX(id), 0) FROM talk_message WHERE low_id = $1),
          (SELECT COALESCE(MAX(id), 0) FROM talk_message WHERE high_id = $1))
      """
    typealias Row = (Int64, Int64, Int64, Int64, Int64)

    var accountID: String

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 1)
      bindings.append(accountID)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      try row.decode(Row.self)
    }
  }

  /// A message to a match, its event and its notification, while they are still a match,
  /// with the conversation before it: a row for each earlier message (one of NULLs when
  /// there is none) after the new message's id, and no row at all once the match has
  /// ended. The sender's matched row is locked (`FOR UPDATE`) before anything is written:
  /// an unmatch or a block ends that row under the pair's lock, so one that comes first
  /// leaves the check finding nothing, and one that comes after waits for the message and
  /// deletes it with the conversation. Without a channel (notifications off), no notice.
  struct SendToMatch: PostgresPreparedStatement {
    static let name = "SendToMatch"
    static let sql = """
      WITH matched AS (
        SELECT 1 FROM incoming_like
        WHERE account_id = $2 AND id = $1 AND status = 'matched' FOR UPDATE),
      earlier AS (
        SELECT id, author_id = $2 AS from_me, subject, text, sent_at FROM talk_message
        WHERE low_id = $3 AND high_id = $4),
      message AS (
        INSERT INTO talk_message (low_id, high_id, author_id, subject, text, sent_at)
        SELECT $3, $4, $2, $5, $6, $7 FROM matched RETURNING id),
      counter AS (
        INSERT INTO like_event_counter (account_id, last) SELECT $1, 1 FROM message
        ON CONFLICT (account_id) DO UPDATE SET last = like_event_counter.last + 1
        RETURNING last),
      event AS (
        INSERT INTO like_event (account_id, seq, type, like_id, message_id)
        SELECT $1, last, 'message', $2, (SELECT id FROM message) FROM counter RETURNING seq),
      notified AS (SELECT pg_notify($8, $1) FROM event WHERE $8::text IS NOT NULL)
      -- A plain WITH runs only where it is read: the count reads it, and adds nothing.
      SELECT (SELECT id FROM message) + 0 * (SELECT COUNT(*) FROM notified),
        e.id, e.from_me, e.subject, e.text, e.sent_at
      FROM (SELECT 1 FROM message) added LEFT JOIN earlier e ON true ORDER BY e.id
      """
    typealias Row = (Int64, Int64?, Bool?, String?, String?, Int?)

    var receiverID: String
    var authorID: String
    var low: String
    var high: String
    var subject: String
    var text: String
    var sentAt: Int
    var notificationChannel: String?

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 8)
      for value in [receiverID, authorID, low, high, subject, text] { bindings.append(value) }
      bindings.append(sentAt)
      bindings.append(notificationChannel)
      return bindings
    }

    /// Cell by cell, each of a type known here: the tuple's generic decoding was a sixth of
    /// the server's time under a load of messages, every one answered with its conversation.
    func decodeRow(_ row: PostgresRow) throws -> Row {
      let cells = row.makeRandomAccess()
      return (
        try cells[0].decode(Int64.self), try cells[1].decode(Int64?.self),
        try cells[2].decode(Bool?.self), try cells[3].decode(String?.self),
        try cells[4].decode(String?.self), try cells[5].decode(Int?.self)
      )
    }
  }

  /// The account called `username` when it is a match of `accountID`'s: the first of a
  /// message's two statements.
  struct MatchedAccount: PostgresPreparedStatement {
    static let name = "MatchedAccount"
    static let sql = """
      SELECT a.id, a.username, a.name, a.password_hash FROM account a
      JOIN incoming_like l ON l.id = a.id
      WHERE a.username = $1 AND l.account_id = $2 AND l.status = 'matched'
      """
    typealias Row = AccountRow

    var username: String
    var accountID: String

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 2)
      bindings.append(username)
      bindings.append(accountID)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try decodeAccount(row) }
  }
}
