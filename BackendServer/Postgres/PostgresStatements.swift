import PostgresNIO

/// The statements on the hot path as prepared statements: parsed once per connection, then
/// bound and run in one round trip each (`PostgresBackendStore.rows(_:on:)`). Every other
/// statement is sent whole, as its query says.
enum PostgresStatements {
  /// A page of an account's pending likes, newest first: `limit` is one more than the page,
  /// to tell whether another follows.
  struct PendingLikes: PostgresPreparedStatement {
    static let sql = """
      SELECT id, user_name, avatar_url, name FROM incoming_like
      WHERE account_id = $1 AND status = 'pending' ORDER BY seq DESC LIMIT $2 OFFSET $3
      """
    typealias Row = (String, String, String?, String?)

    var accountID: String
    var limit: Int
    var offset: Int

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 3)
      bindings.append(accountID)
      bindings.append(limit)
      bindings.append(offset)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      try row.decode(Row.self)
    }
  }

  /// The account a token belongs to, while the token lasts (every request whose token was
  /// not checked in the last second: `RecentTokens`).
  struct TokenAccount: PostgresPreparedStatement {
    static let sql = """
      SELECT a.id, a.username, a.name, a.password_hash FROM token t JOIN account a
      ON a.id = t.account_id WHERE t.token_hash = $1 AND t.created_at + t.expires_in > $2
      """
    typealias Row = (String, String, String, String)

    var tokenHash: String
    var now: Int

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 2)
      bindings.append(tokenHash)
      bindings.append(now)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      try row.decode(Row.self)
    }
  }

  /// One conversation's messages, in the order they came.
  struct Conversation: PostgresPreparedStatement {
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
}
