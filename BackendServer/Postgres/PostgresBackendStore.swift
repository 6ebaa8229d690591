import Backend
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The backend's state in a PostgreSQL database that several `app serve` instances share.
///
/// Queries are written out as `PostgresQuery` interpolations: every value is a bind, never
/// text pasted into SQL. Each write that reads before it writes runs in one transaction, and
/// the rows it decides on are locked (`FOR UPDATE`, a counter row, an advisory lock), so two
/// instances deciding at once take turns. `BackendStoreContract` holds it to what the SQLite
/// store does.
///
/// The connection pools, one per event loop (`PostgresLoopPools`), and the notification
/// listener are services: they run in the server's `ServiceGroup` (`services`), and stop after
/// it has answered its last request.
public final class PostgresBackendStore: Sendable {
  /// A pool per event loop, each of whose connections lives on that loop
  /// (`PostgresLoopPools`).
  package let pools: PostgresLoopPools
  /// A pool, for a caller that does not mind which.
  package var client: PostgresClient { pools.any }
  public let location: PostgresLocation
  package let logger: Logger
  /// Woken when an event is written here or, with notifications, anywhere.
  package let eventSignal: EventSignal
  /// The NOTIFY channel events are announced on; nil when notifications are switched off.
  package let notificationChannel: String?
  package let likesSeeded = Mutex<Set<String>>([])
  /// How many leases `withOpenConnection` tries: more than any one pool's connections, each
  /// of which may turn out closed once.
  package let leaseAttempts: Int
  package let conversationsSeeded = Mutex<Set<String>>([])

  package static let defaultNotificationChannel = "like_events"

  /// What to run beside the server for the store to work.
  public var services: [any Service] {
    var services: [any Service] = pools.clients
    if let notificationChannel {
      services.append(
        PostgresEventListener(
          location: location, channel: notificationChannel, signal: eventSignal, logger: logger))
    }
    return services
  }

  /// A store whose client is made but not yet connected: run `services`, then `prepare()`.
  public convenience init(
    location: PostgresLocation, poolSize: Int = defaultPoolSize, notifications: Bool = true
  ) throws {
    try self.init(
      location: location, poolSize: poolSize, notifications: notifications,
      eventSignal: EventSignal())
  }

  /// Connections each instance keeps at most: instances × this must stay under the server's
  /// `max_connections` (100 by default), with room for the listener and for psql. Eight:
  /// under 50 clients on 2 cores, 16 busy backends took turns on the cores and doubled the
  /// p99 of section 5's reads for the same requests/s (docs/server.md, People at scale).
  public static let defaultPoolSize = 8

  package init(
    location: PostgresLocation, poolSize: Int, notifications: Bool, eventSignal: EventSignal
  ) throws {
    self.location = location
    self.leaseAttempts = poolSize + 2
    var logger = Logger(label: "backend-postgres")
    logger.logLevel = .critical
    self.logger = logger
    self.pools = try PostgresLoopPools(location: location, poolSize: poolSize)
    self.eventSignal = eventSignal
    self.notificationChannel = notifications ? Self.defaultNotificationChannel : nil
  }

  /// Checks the database answers, then brings its schema up to date (under the advisory
  /// lock: see `PostgresSchema`). The services must be running. An unreachable database or
  /// refused credentials are an error within seconds that names the host, never the password.
  package func prepare() async throws {
    try await PostgresReachability.check(location, logger: logger)
    try await PostgresSchema.migrate(self)
  }

  /// Rows of `query`, each decoded as `T`.
  package func rows<T: PostgresDecodable & Sendable>(
    _ query: PostgresQuery, as type: T.Type, on connection: PostgresConnection? = nil
  ) async throws -> [T] {
    guard let connection else {
      return try await withOpenConnection { try await self.rows(query, as: type, on: $0) }
    }
    return try await connection.rowsUnlessClosed(query, logger: logger).map {
      try $0.decode(T.self)
    }
  }

  package func rows<each T: PostgresDecodable & Sendable>(
    _ query: PostgresQuery, as types: (repeat each T).Type,
    on connection: PostgresConnection? = nil
  ) async throws -> [(repeat each T)] {
    guard let connection else {
      return try await withOpenConnection { try await self.rows(query, as: types, on: $0) }
    }
    return try await connection.rowsUnlessClosed(query, logger: logger).map {
      try $0.decode((repeat each T).self)
    }
  }

  /// Rows of a prepared statement: for reads on the hot path (`PostgresStatements`).
  package func rows<Statement: PostgresPreparedStatement>(
    _ statement: Statement, on connection: PostgresConnection? = nil
  ) async throws -> [Statement.Row] where Statement.Row: Sendable {
    guard let connection else {
      return try await withOpenConnection { try await self.rows(statement, on: $0) }
    }
    return try await connection.rowsUnlessClosed(statement, logger: logger)
  }

  package func execute(_ query: PostgresQuery, on connection: PostgresConnection? = nil)
    async throws
  {
    guard let connection else {
      return try await withOpenConnection { try await self.execute(query, on: $0) }
    }
    _ = try await connection.rowsUnlessClosed(query, logger: logger)
  }

  /// `body` between `begin` (`BEGIN`, or with an isolation level) and `COMMIT`, or
  /// `ROLLBACK` if it throws. Written out rather than
  /// postgres-nio's `withTransaction`, so that these statements too are sent only on a
  /// connection still open (`rowsUnlessClosed`).
  package func transaction<T: Sendable>(
    begin: PostgresQuery = "BEGIN", _ body: (PostgresConnection) async throws -> sending T
  ) async throws -> T {
    try await withOpenConnection { connection in
      try await self.execute(begin, on: connection)
      let value: T
      do {
        value = try await body(connection)
      } catch {
        try? await self.execute("ROLLBACK", on: connection)
        throw error
      }
      try await self.execute("COMMIT", on: connection)
      return value
    }
  }

  /// `body` on a connection of this event loop's pool, again on another one if the first had
  /// closed before a statement was sent. The pool can lease a connection the server has just
  /// closed (a restart, `pg_terminate_backend`) before it has heard of it. A statement refused
  /// with `PostgresConnectionClosed` never reached the server, and a transaction whose
  /// connection closed before `COMMIT` was sent is rolled back by the server, so sending the
  /// whole body again changes nothing twice.
  private func withOpenConnection<T>(
    _ body: (PostgresConnection) async throws -> sending T
  ) async throws -> sending T {
    for _ in 0..<leaseAttempts {
      do {
        return try await pools.here.withConnection { connection -> sending T in
          try await body(connection)
        }
      } catch is PostgresConnectionClosed {
        continue
      }
    }
    throw PostgresUnreachable(location: location, reason: "every pooled connection was closed")
  }

}

// MARK: - Accounts and tokens

extension PostgresBackendStore: BackendStore {
  package func createAccount(_ account: AccountRecord) async throws -> AccountCreation {
    let inserted = try await rows(
      """
      INSERT INTO account (id, username, name, password_hash)
      VALUES (\(account.id), \(account.username), \(account.name), \(account.passwordHash))
      ON CONFLICT DO NOTHING RETURNING id
      """, as: String.self)
    return inserted.isEmpty ? .usernameTaken : .created
  }

  package func account(username: String) async throws -> AccountRecord? {
    try await rows(
      "SELECT id, username, name, password_hash FROM account WHERE username = \(username)",
      as: (String, String, String, String).self
    ).first.map(AccountRecord.init)
  }

  package func account(tokenHash: String, now: Date) async throws -> AccountRecord? {
    let now = Int(now.timeIntervalSince1970)
    return try await rows(PostgresStatements.TokenAccount(tokenHash: tokenHash, now: now))
      .first.map(AccountRecord.init)
  }

  package func hasAccounts() async throws -> Bool {
    try await rows("SELECT EXISTS (SELECT 1 FROM account)", as: Bool.self).first ?? false
  }

  package func insert(_ token: TokenRecord) async throws {
    try await execute(
      """
      INSERT INTO token (token_hash, account_id, created_at, expires_in, scope)
      VALUES (\(token.tokenHash), \(token.accountID), \(token.createdAt), \(token.expiresIn), \(token.scope))
      """)
  }

  package func deleteToken(hash: String) async throws -> Bool {
    try await !rows("DELETE FROM token WHERE token_hash = \(hash) RETURNING 1", as: Int.self)
      .isEmpty
  }

  package func answers() async throws -> Bool {
    try await rows("SELECT 1", as: Int.self) == [1]
  }

  /// Nothing to do: the pools and the listener are services, which the server's group stops
  /// after the backend (`services`).
  package func close() async {}
}

extension AccountRecord {
  package init(_ row: (String, String, String, String)) {
    self.init(id: row.0, username: row.1, name: row.2, passwordHash: row.3)
  }
}
