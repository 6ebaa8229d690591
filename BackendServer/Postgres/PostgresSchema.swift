import Backend
import PostgresNIO

/// The PostgreSQL schema, versioned: each migration runs once, in order, in one transaction
/// with the versions it records.
///
/// Instances started together on an empty database all run `migrate`; a transaction-scoped
/// advisory lock makes them take turns, so the first creates everything and the others find
/// it done. A shipped migration is never edited: add the next version.
enum PostgresSchema {
  struct Migration {
    let version: Int
    let name: String
    let statements: [String]
  }

  /// The advisory lock's key: any constant the database's other users do not take ("AppSchem").
  static let lockKey: Int64 = 0x4170_7053_6368_656D

  static let migrations: [Migration] = [
    Migration(
      version: 1, name: "accounts, tokens, messages, likes, events, push, sign-in failures",
      statements: [
        """
        CREATE TABLE account (
          id text PRIMARY KEY, username text NOT NULL UNIQUE, name text NOT NULL,
          password_hash text NOT NULL)
        """,
        // Only a SHA-256 of each token is kept: the database never holds a usable token.
        """
        CREATE TABLE token (
          token_hash text PRIMARY KEY,
          account_id text NOT NULL REFERENCES account ON DELETE CASCADE,
          created_at bigint NOT NULL, expires_in bigint NOT NULL, scope text NOT NULL)
        """,
        // "C": names that differ in any byte are different people, as on SQLite.
        """
        CREATE TABLE conversation (
          account_id text NOT NULL REFERENCES account ON DELETE CASCADE,
          name text COLLATE "C" NOT NULL, PRIMARY KEY (account_id, name))
        """,
        """
        CREATE TABLE conversation_message (
          id bigserial PRIMARY KEY, account_id text NOT NULL, person text COLLATE "C" NOT NULL,
          subject text NOT NULL, text text NOT NULL,
          FOREIGN KEY (account_id, person) REFERENCES conversation ON DELETE CASCADE)
        """,
        "CREATE INDEX conversation_message_by_person ON conversation_message (account_id, person, id)",
        "CREATE TABLE conversations_seeded (account_id text PRIMARY KEY)",
        // The order likes arrived and were matched in: any increasing number does, so one
        // sequence for all accounts (it never makes a writer wait).
        "CREATE SEQUENCE like_order",
        """
        CREATE TABLE incoming_like (
          id text PRIMARY KEY, account_id text NOT NULL REFERENCES account ON DELETE CASCADE,
          user_name text NOT NULL, avatar_url text, seq bigint NOT NULL, status text NOT NULL,
          matched_seq bigint)
        """,
        "CREATE INDEX incoming_like_by_account ON incoming_like (account_id, status, seq)",
        "CREATE TABLE likes_seeded (account_id text PRIMARY KEY)",
        // Each account's last event number. A writer takes the next one by updating this row,
        // which it then holds until it commits: the account's events commit in the order of
        // their numbers, so a client that has seen N never later finds a smaller one appear.
        """
        CREATE TABLE like_event_counter (
          account_id text PRIMARY KEY REFERENCES account ON DELETE CASCADE, last bigint NOT NULL)
        """,
        """
        CREATE TABLE like_event (
          account_id text NOT NULL REFERENCES account ON DELETE CASCADE, seq bigint NOT NULL,
          type text NOT NULL, like_id text NOT NULL, PRIMARY KEY (account_id, seq))
        """,
        // When each account's next made-up like is due; its row lock makes one instance make it.
        """
        CREATE TABLE like_generator (
          account_id text PRIMARY KEY REFERENCES account ON DELETE CASCADE,
          next_due_at double precision NOT NULL)
        """,
        """
        CREATE TABLE push_session (
          session_hash text PRIMARY KEY,
          account_id text NOT NULL REFERENCES account ON DELETE CASCADE)
        """,
        """
        CREATE TABLE push_registration (
          account_id text PRIMARY KEY REFERENCES account ON DELETE CASCADE,
          uuid text NOT NULL, token text NOT NULL)
        """,
        "CREATE INDEX push_registration_by_uuid ON push_registration (uuid)",
        "CREATE TABLE vendor_registration (uuid text PRIMARY KEY)",
        // The throttle's counts: "account:NAME" or "address:IP".
        """
        CREATE TABLE sign_in_failure (
          key text PRIMARY KEY, count bigint NOT NULL, last_at double precision NOT NULL,
          wait_until double precision NOT NULL)
        """,
      ]),
    // Section 5, as SQLite's v9 (`PeopleMigration`): every row stays.
    Migration(
      version: 2, name: "people meet",
      statements: [
        // The order accounts joined in: a new column of a serial type numbers the rows there.
        "ALTER TABLE account ADD COLUMN joined_seq bigserial",
        "CREATE INDEX account_by_joined_seq ON account (joined_seq)",
        // An account's id is in the list of everybody it liked: keyed by the list and the id.
        "ALTER TABLE incoming_like DROP CONSTRAINT incoming_like_pkey",
        "ALTER TABLE incoming_like ADD PRIMARY KEY (account_id, id)",
        "ALTER TABLE incoming_like ADD COLUMN name text",
        """
        CREATE TABLE person_pass (
          account_id text NOT NULL REFERENCES account ON DELETE CASCADE,
          person_id text NOT NULL, PRIMARY KEY (account_id, person_id))
        """,
        """
        CREATE TABLE person_block (
          blocker_id text NOT NULL REFERENCES account ON DELETE CASCADE,
          blocked_id text NOT NULL, PRIMARY KEY (blocker_id, blocked_id))
        """,
        // One conversation for two accounts, keyed by their ids in order.
        """
        CREATE TABLE talk_message (
          id bigserial PRIMARY KEY,
          low_id text NOT NULL REFERENCES account ON DELETE CASCADE,
          high_id text NOT NULL REFERENCES account ON DELETE CASCADE,
          author_id text NOT NULL, subject text NOT NULL, text text NOT NULL,
          sent_at bigint NOT NULL)
        """,
        "CREATE INDEX talk_message_by_pair ON talk_message (low_id, high_id, id)",
        "CREATE INDEX talk_message_by_high ON talk_message (high_id, id)",
        "ALTER TABLE conversation_message ADD COLUMN from_me boolean, ADD COLUMN sent_at bigint",
        "ALTER TABLE like_event ADD COLUMN message_id bigint",
      ]),
    // Everybody an account has liked, found by its id in their lists: `/people` leaves
    // them out as one hashed set. Without it, a plan the server caches for the statement
    // read every like there is (88 ms at a million likes; docs/server.md).
    Migration(
      version: 3, name: "likes by liker",
      statements: ["CREATE INDEX incoming_like_by_liker ON incoming_like (id)"]),
  ]

  /// Brings the database up to the last version; returns the versions it applied. Through
  /// the store's own statements, which are sent only on a connection still open.
  @discardableResult
  static func migrate(_ store: PostgresBackendStore) async throws -> [Int] {
    try await store.transaction { connection in
      try await store.execute("SELECT pg_advisory_xact_lock(\(lockKey))", on: connection)
      try await store.execute(
        """
        CREATE TABLE IF NOT EXISTS schema_version (
          version integer PRIMARY KEY, name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now())
        """, on: connection)
      let applied = Set(
        try await store.rows("SELECT version FROM schema_version", as: Int.self, on: connection))
      var done: [Int] = []
      for migration in migrations where !applied.contains(migration.version) {
        for statement in migration.statements {
          try await store.execute(PostgresQuery(unsafeSQL: statement), on: connection)
        }
        try await store.execute(
          "INSERT INTO schema_version (version, name) VALUES (\(migration.version), \(migration.name))",
          on: connection)
        done.append(migration.version)
      }
      return done
    }
  }
}
