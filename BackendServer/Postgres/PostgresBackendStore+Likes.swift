import Backend
import Foundation
import PostgresNIO

extension PostgresBackendStore {
  /// The account's starting likes, once across every instance: the row that marks them is
  /// inserted first, in the same transaction.
  package func seedLikesIfNeeded(accountID: String, makeLikes: () -> [IncomingLike]) async throws {
    if likesSeeded.withLock({ $0.contains(accountID) }) { return }
    try await transaction { connection in
      let marked = try await self.rows(
        "INSERT INTO likes_seeded (account_id) VALUES (\(accountID)) ON CONFLICT DO NOTHING RETURNING 1",
        as: Int.self, on: connection)
      guard !marked.isEmpty else { return }
      for like in makeLikes() {
        try await self.insert(like, for: accountID, on: connection)
      }
    }
    likesSeeded.withLock { _ = $0.insert(accountID) }
  }

  package func pendingLikes(accountID: String, page: Int, batchSize: Int) async throws -> (
    likes: [IncomingLike], hasMore: Bool
  ) {
    let (offset, overflowed) = (page - 1).multipliedReportingOverflow(by: batchSize)
    guard !overflowed else { return ([], false) }
    let found = try await rows(
      PostgresStatements.PendingLikes(accountID: accountID, limit: batchSize + 1, offset: offset))
    return (found.prefix(batchSize).map(Self.like), found.count > batchSize)
  }

  package func matchLike(id: String, by account: AccountRecord) async throws -> IncomingLike? {
    let accountID = account.id
    let (matched, signalled) = try await transaction {
      connection -> (IncomingLike?, [String]) in
      // An account's like is decided under the pair's lock, as `likePerson` decides it.
      if let liker = try await self.account(id: id.lowercased(), on: connection) {
        try await self.lockPair(accountID, liker.id, on: connection)
      }
      // Locked: a like back through another instance at the same time waits, then finds
      // it no longer pending.
      guard
        let like = try await self.rows(
          """
          SELECT id, user_name, avatar_url, name FROM incoming_like
          WHERE id = \(id.lowercased()) AND account_id = \(accountID) AND status = 'pending'
          FOR UPDATE
          """, as: (String, String, String?, String?).self, on: connection
        ).first.map(Self.like)
      else { return (nil, []) }
      if let liker = try await self.account(id: like.id, on: connection) {
        try await self.matchAccounts(account, liker, on: connection)
        return (like, [accountID, liker.id])
      }
      try await self.markMatched(like.id, in: accountID, on: connection)
      try await self.recordEvent(
        "mutualMatch", personID: like.id, accountID: accountID, on: connection)
      return (like, [accountID])
    }
    for accountID in signalled { eventSignal.signal(accountID) }
    return matched
  }

  func markMatched(_ personID: String, in accountID: String, on connection: PostgresConnection)
    async throws
  {
    try await execute(
      """
      UPDATE incoming_like SET status = 'matched', matched_seq = nextval('like_order')
      WHERE account_id = \(accountID) AND id = \(personID)
      """, on: connection)
  }

  package func skipLike(id: String, accountID: String) async throws -> Bool {
    try await !rows(
      """
      UPDATE incoming_like SET status = 'skipped'
      WHERE id = \(id.lowercased()) AND account_id = \(accountID) AND status = 'pending'
      RETURNING 1
      """, as: Int.self
    ).isEmpty
  }

  package func mutuals(accountID: String) async throws -> [IncomingLike] {
    try await rows(PostgresStatements.Mutuals(accountID: accountID)).map(Self.like)
  }

  /// Made-up likes are made once across instances: the account's generator row is locked
  /// while they are, and the instance that waited for it finds the next one not yet due.
  package func generateDueLikes(
    accountID: String, now: Date, interval: () -> TimeInterval, makeLike: () -> IncomingLike
  ) async throws -> Date {
    // Most polls find nothing due: a read, no lock.
    if let due = try await nextDue(accountID: accountID, on: nil), due > now { return due }
    let firstDue = now.addingTimeInterval(interval()).timeIntervalSince1970
    let result = try await transaction { connection -> (Date, Int) in
      try await self.execute(
        """
        INSERT INTO like_generator (account_id, next_due_at) VALUES (\(accountID), \(firstDue))
        ON CONFLICT DO NOTHING
        """, on: connection)
      let stored = try await self.rows(
        "SELECT next_due_at FROM like_generator WHERE account_id = \(accountID) FOR UPDATE",
        as: Double.self, on: connection)
      var due = Date(timeIntervalSince1970: stored.first ?? firstDue)
      var count = 0
      while due <= now {
        // At most a handful at once: a backend left alone for a week floods nobody.
        if count < 5 {
          let like = makeLike()
          try await self.insert(like, for: accountID, on: connection)
          try await self.recordEvent(
            "likedYouInserted", personID: like.id, accountID: accountID, on: connection)
          count += 1
        }
        due = due.addingTimeInterval(interval())
      }
      let nextDue = due.timeIntervalSince1970
      try await self.execute(
        "UPDATE like_generator SET next_due_at = \(nextDue) WHERE account_id = \(accountID)",
        on: connection)
      return (due, count)
    }
    if result.1 > 0 { eventSignal.signal(accountID) }
    return result.0
  }

  /// A `message` event whose message an unmatch deleted is left out, as on SQLite.
  package func events(accountID: String, after: Int) async throws -> (
    events: [StoredEvent], last: Int
  ) {
    // One statement, so one snapshot: `last` is never past an event the list left out.
    let found = try await rows(
      """
      WITH top AS (
        SELECT COALESCE(MAX(seq), 0) AS last FROM like_event WHERE account_id = \(accountID))
      SELECT top.last, e.seq, e.type, e.id, e.user_name, e.avatar_url, e.name, e.message_id,
        e.m_id, e.author_id, e.subject, e.text, e.sent_at FROM top
      LEFT JOIN LATERAL (
        SELECT ev.seq, ev.type, l.id, l.user_name, l.avatar_url, l.name, ev.message_id,
          m.id AS m_id, m.author_id, m.subject, m.text, m.sent_at FROM like_event ev
        JOIN incoming_like l ON l.account_id = ev.account_id AND l.id = ev.like_id
        LEFT JOIN talk_message m ON m.id = ev.message_id
        WHERE ev.account_id = \(accountID) AND ev.seq > \(after)) e ON true
      ORDER BY e.seq
      """,
      as: (
        Int, Int?, String?, String?, String?, String?, String?, Int64?, Int64?, String?, String?,
        String?, Int?
      ).self)
    let last = found.first?.0 ?? 0
    let events = found.compactMap { row -> StoredEvent? in
      guard let seq = row.1, let type = row.2, let id = row.3, let userName = row.4 else {
        return nil
      }
      let person = IncomingLike(id: id, userName: userName, avatarURL: row.5, name: row.6)
      guard row.7 != nil else { return StoredEvent(seq: seq, type: type, person: person) }
      guard let messageID = row.8, let author = row.9, let subject = row.10, let text = row.11
      else { return nil }
      let message = MessageRecord(
        id: messageID, accountID: accountID, person: userName, subject: subject, text: text,
        fromMe: author == accountID, sentAt: row.12)
      return StoredEvent(seq: seq, type: type, person: person, message: message)
    }
    return (events, last)
  }

  private func nextDue(accountID: String, on connection: PostgresConnection?) async throws
    -> Date?
  {
    try await rows(
      "SELECT next_due_at FROM like_generator WHERE account_id = \(accountID)", as: Double.self,
      on: connection
    ).first.map(Date.init(timeIntervalSince1970:))
  }

  func insert(
    _ like: IncomingLike, for accountID: String, status: String = LikeStatus.pending,
    on connection: PostgresConnection
  ) async throws {
    try await execute(
      """
      INSERT INTO incoming_like (id, account_id, user_name, avatar_url, name, seq, status)
      VALUES (\(like.id), \(accountID), \(like.userName), \(like.avatarURL), \(like.name), nextval('like_order'), \(status))
      """, on: connection)
    if status == LikeStatus.matched {
      try await markMatched(like.id, in: accountID, on: connection)
    }
  }

  /// Takes the account's next event number by updating its counter row, which stays locked
  /// until this transaction commits: events commit in the order of their numbers (see
  /// `PostgresSchema`), and the notification goes out with the commit. The number, the
  /// event and the notification are one statement: three round trips were a third of a
  /// like's on a loaded server. `before`, when given, is a statement that runs first in
  /// the same one (a `WITH` of its own, such as the like the event tells of).
  func recordEvent(
    _ type: String, personID: String, accountID: String, messageID: Int64? = nil,
    after before: (sql: String, bindings: [String?])? = nil, on connection: PostgresConnection
  ) async throws {
    var bindings = PostgresBindings(capacity: 5)
    bindings.append(accountID)
    bindings.append(type)
    bindings.append(personID)
    bindings.append(messageID)
    for value in before?.bindings ?? [] { bindings.append(value) }
    let sql =
      "WITH " + (before.map { "first AS (\($0.sql)), " } ?? "")
      + Self.eventStatements(account: "$1", type: "$2", person: "$3", message: "$4")
      + notifying(account: "$1", channelInto: &bindings)
    try await execute(PostgresQuery(unsafeSQL: sql, binds: bindings), on: connection)
  }

  /// Two common table expressions that number the account's next event (`counter`) and
  /// write it (`event`); the arguments are SQL: parameters, or a subquery.
  static func eventStatements(account: String, type: String, person: String, message: String)
    -> String
  {
    """
    counter AS (
      INSERT INTO like_event_counter (account_id, last) VALUES (\(account), 1)
      ON CONFLICT (account_id) DO UPDATE SET last = like_event_counter.last + 1
      RETURNING last),
    event AS (
      INSERT INTO like_event (account_id, seq, type, like_id, message_id)
      SELECT \(account), last, \(type), \(person), \(message) FROM counter RETURNING seq)
    """
  }

  /// The end of a statement after `eventStatements`: `SELECT selecting`, once the event is
  /// written, with the notification to the account's polls when notifications are on. Its
  /// channel is appended to `bindings`.
  func notifying(
    account: String, selecting: String = "seq", channelInto bindings: inout PostgresBindings
  ) -> String {
    guard let notificationChannel else { return " SELECT \(selecting) FROM event" }
    bindings.append(notificationChannel)
    return
      " SELECT \(selecting) FROM event, (SELECT pg_notify($\(bindings.count), \(account))) notified"
  }

  static func like(_ row: (String, String, String?, String?)) -> IncomingLike {
    IncomingLike(id: row.0, userName: row.1, avatarURL: row.2, name: row.3)
  }
}
