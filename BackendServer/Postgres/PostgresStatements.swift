import PostgresNIO

/// The statements on the hot path as prepared statements: parsed once per connection, then
/// bound and run in one round trip each (`PostgresBackendStore.rows(_:on:)`). Every other
/// statement is sent whole, as its query says. Each is named by a literal: postgres-nio's
/// default name is its type's reflected name, made again at every run.
enum PostgresStatements {
  /// The account a token belongs to, while the token lasts (every request whose token was
  /// not checked in the last second: `RecentTokens`).
  struct TokenAccount: PostgresPreparedStatement {
    static let name = "TokenAccount"
    static let sql = """
      SELECT a.id, a.username, a.name, a.password_hash FROM token t JOIN account a
      ON a.id = t.account_id WHERE t.token_hash = $1 AND t.created_at + t.expires_in > $2
      """
    typealias Row = AccountRow

    var tokenHash: String
    var now: Int

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 2)
      bindings.append(tokenHash)
      bindings.append(now)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try decodeAccount(row) }
  }

  /// An account's id, username, name and password hash, in that order: what every
  /// statement that finds an account selects.
  typealias AccountRow = (String, String, String, String)

  /// Cell by cell, each a `String`: the tuple's generic decoding costs more than the
  /// statement on the hot path.
  static func decodeAccount(_ row: PostgresRow) throws -> AccountRow {
    let cells = row.makeRandomAccess()
    return (
      try cells[0].decode(String.self), try cells[1].decode(String.self),
      try cells[2].decode(String.self), try cells[3].decode(String.self)
    )
  }
}
