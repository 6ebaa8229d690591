import PostgresNIO

/// The statements of likes: a like's two, after which its transaction commits (the person
/// found with the pair's lock taken, then, under the lock, the like written if it is a new
/// one), and the pending likes and mutual matches read.
extension PostgresStatements {
  /// The account `personID` names unless a block stands between it and `accountID`, with
  /// the pair's advisory lock (`PostgresBackendStore.lockPair`) taken first, in the same
  /// round trip: the lock as a statement of its own would come next whether or not the
  /// person turns out visible.
  struct VisiblePersonLockingPair: PostgresPreparedStatement {
    static let name = "VisiblePersonLockingPair"
    static let sql = """
      SELECT id, username, name, password_hash
      FROM (SELECT pg_advisory_xact_lock(hashtextextended($3, 0))) locked, account a
      WHERE a.id = $1
        AND NOT EXISTS (
          SELECT 1 FROM person_block
          WHERE (blocker_id = $2 AND blocked_id = $1) OR (blocker_id = $1 AND blocked_id = $2))
      """
    typealias Row = AccountRow

    var personID: String
    var accountID: String
    /// The pair's two ids, lower first, with a space between: what the lock is taken on.
    var pairKey: String

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 3)
      bindings.append(personID)
      bindings.append(accountID)
      bindings.append(pairKey)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try decodeAccount(row) }
  }

  /// How the two stand (`mine`: the liker's like in the person's list; `theirs`: the
  /// person's in the liker's), and, when the liker has not liked the person yet and the
  /// person's like is not waiting for an answer, the like written with the person's event
  /// and its notice. Run under the pair's lock, as a statement of its own, so that it reads
  /// what was committed while the lock was waited for. The last column is 1 when the like
  /// was written; otherwise the store decides from the two statuses (liked before, or a
  /// match).
  struct LikeIfNew: PostgresPreparedStatement {
    static let name = "LikeIfNew"
    static let sql = """
      WITH statuses AS (
        SELECT (SELECT status FROM incoming_like WHERE account_id = $2 AND id = $1) AS mine,
          (SELECT status FROM incoming_like WHERE account_id = $1 AND id = $2) AS theirs),
      liked AS (
        INSERT INTO incoming_like (id, account_id, user_name, avatar_url, name, seq, status)
        SELECT $1, $2, $3, $4, $5, nextval('like_order'), 'pending' FROM statuses
        WHERE mine IS NULL AND (theirs IS NULL OR theirs NOT IN ('pending', 'skipped'))
        RETURNING 1),
      counter AS (
        INSERT INTO like_event_counter (account_id, last) SELECT $2, 1 FROM liked
        ON CONFLICT (account_id) DO UPDATE SET last = like_event_counter.last + 1
        RETURNING last),
      event AS (
        INSERT INTO like_event (account_id, seq, type, like_id, message_id)
        SELECT $2, last, 'likedYouInserted', $1, NULL FROM counter RETURNING seq),
      notified AS (SELECT pg_notify($6, $2) FROM event WHERE $6::text IS NOT NULL)
      -- A plain WITH runs only where it is read: the count reads it, and adds nothing.
      SELECT mine, theirs, (SELECT COUNT(*) FROM liked) + 0 * (SELECT COUNT(*) FROM notified)
      FROM statuses
      """
    typealias Row = (String?, String?, Int)

    var likerID: String
    var personID: String
    var likerUserName: String
    var likerAvatarURL: String?
    var likerName: String?
    var notificationChannel: String?

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 6)
      bindings.append(likerID)
      bindings.append(personID)
      bindings.append(likerUserName)
      bindings.append(likerAvatarURL)
      bindings.append(likerName)
      bindings.append(notificationChannel)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      let cells = row.makeRandomAccess()
      return (
        try cells[0].decode(String?.self), try cells[1].decode(String?.self),
        try cells[2].decode(Int.self)
      )
    }
  }

  /// An account's mutual matches, newest match first.
  struct Mutuals: PostgresPreparedStatement {
    static let name = "Mutuals"
    static let sql = """
      SELECT id, user_name, avatar_url, name FROM incoming_like
      WHERE account_id = $1 AND status = 'matched' ORDER BY matched_seq DESC
      """
    typealias Row = (String, String, String?, String?)

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

  /// A page of an account's pending likes, newest first: `limit` is one more than the page,
  /// to tell whether another follows.
  struct PendingLikes: PostgresPreparedStatement {
    static let name = "PendingLikes"
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
}
