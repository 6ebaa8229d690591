import PostgresNIO

/// The statements of `GET /people`.
extension PostgresStatements {
  /// A page of the people an account may like (section 5), newest first, from the newest
  /// `joined_seq` the page may start at (`PeoplePageStart`), then `offset` more. Planned
  /// once per connection: planning it was most of its time on a small page. Whom the
  /// account liked, and whom it answered, are each one set read once by an index
  /// (`incoming_like_by_liker`, `incoming_like_by_account`), the same plan whatever the
  /// parameters: a generic plan of the per-row form scanned every like.
  struct PeoplePage: PostgresPreparedStatement {
    static let name = "PeoplePage"
    static let sql = """
      SELECT a.id, a.username, a.name, a.joined_seq FROM account a
      WHERE a.id <> $1 AND a.joined_seq <= $2
        AND a.id NOT IN (SELECT account_id FROM incoming_like WHERE id = $1)
        AND a.id NOT IN (SELECT id FROM incoming_like WHERE account_id = $1 AND status <> 'pending')
        AND NOT EXISTS (SELECT 1 FROM person_pass WHERE account_id = $1 AND person_id = a.id)
        AND NOT EXISTS (SELECT 1 FROM person_block WHERE blocker_id = $1 AND blocked_id = a.id)
        AND NOT EXISTS (SELECT 1 FROM person_block WHERE blocker_id = a.id AND blocked_id = $1)
      ORDER BY a.joined_seq DESC LIMIT $3 OFFSET $4
      """
    typealias Row = (String, String, String, Int64)

    var accountID: String
    var newestSeq: Int64
    var limit: Int
    var offset: Int

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 4)
      bindings.append(accountID)
      bindings.append(newestSeq)
      bindings.append(limit)
      bindings.append(offset)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
      try row.decode(Row.self)
    }
  }
}
