import Backend
import Foundation
import PostgresNIO

// Section 5 on PostgreSQL, by the rules `BackendDatabase+People` keeps on SQLite. Whatever
// two accounts do to each other is decided under their pair's advisory lock (`lockPair`):
// a like each way at once, on two instances, is one match, not two likes. A message to a
// match locks the sender's matched row instead, which these acts end (`SendToMatch`).
extension PostgresBackendStore {
  /// The people the account liked or answered are sets, each read once (`NOT IN`, a hashed
  /// subplan): as a correlated `NOT EXISTS` the planner joined every candidate against all
  /// of them, 32 ms for page 50 of an account with 300 answered (docs/server.md).
  package func people(accountID: String, from start: PeoplePageStart, batchSize: Int)
    async throws -> PeoplePageRows
  {
    let (offset, newestSeq): (Int, Int64) =
      switch start {
      case .offset(let offset): (offset, Int64.max)
      case .atOrOlderThan(let seq): (0, seq)
      }
    let found = try await rows(
      PostgresStatements.PeoplePage(
        accountID: accountID, newestSeq: newestSeq, limit: batchSize + 1, offset: offset),
      on: nil)
    return PeoplePageRows(
      found.map { (IncomingLike(id: $0.0, userName: $0.1, avatarURL: nil, name: $0.2), $0.3) },
      batchSize: batchSize)
  }

  package func likePerson(_ personID: String, by account: AccountRecord) async throws
    -> PersonLikeOutcome
  {
    let (outcome, signalled) = try await transaction {
      connection -> (PersonLikeOutcome, [String]) in
      guard
        let person = try await self.visibleAccount(
          personID, to: account, lockingThePair: true, on: connection)
      else { return (Self.isOwn(personID, account) ? .ownID : .unknownPerson, []) }
      // A new like, with its event, in the statement that reads how the two stand: the
      // common case in two round trips after the lock, where it was three.
      let liker = account.asPerson
      let (mine, _, written) = try await self.rows(
        PostgresStatements.LikeIfNew(
          likerID: liker.id, personID: person.id, likerUserName: liker.userName,
          likerAvatarURL: liker.avatarURL, likerName: liker.name,
          notificationChannel: self.notificationChannel), on: connection)[0]
      if written == 1 {
        return (.liked(person.asPerson, mutualMatch: false), [person.id])
      }
      if let mine {
        return (.liked(person.asPerson, mutualMatch: mine == LikeStatus.matched), [])
      }
      // Not written, not liked before: the person's like waits for an answer (pending or
      // passed), and this one answers it.
      try await self.matchAccounts(account, person, on: connection)
      return (.liked(person.asPerson, mutualMatch: true), [account.id, person.id])
    }
    for accountID in signalled { eventSignal.signal(accountID) }
    return outcome
  }

  package func passPerson(_ personID: String, by account: AccountRecord) async throws
    -> PersonAnswerOutcome
  {
    try await transaction { connection in
      guard let person = try await self.visibleAccount(personID, to: account, on: connection)
      else { return Self.isOwn(personID, account) ? .ownID : .unknownPerson }
      try await self.execute(
        """
        INSERT INTO person_pass (account_id, person_id) VALUES (\(account.id), \(person.id))
        ON CONFLICT DO NOTHING
        """, on: connection)
      try await self.execute(
        """
        UPDATE incoming_like SET status = 'skipped'
        WHERE account_id = \(account.id) AND id = \(person.id) AND status = 'pending'
        """, on: connection)
      return .done
    }
  }

  package func blockPerson(_ personID: String, by account: AccountRecord) async throws
    -> PersonAnswerOutcome
  {
    let (outcome, told) = try await transaction {
      connection -> (PersonAnswerOutcome, String?) in
      guard let person = try await self.visibleAccount(personID, to: account, on: connection)
      else { return (Self.isOwn(personID, account) ? .ownID : .unknownPerson, nil) }
      try await self.lockPair(account.id, person.id, on: connection)
      try await self.execute(
        """
        INSERT INTO person_block (blocker_id, blocked_id) VALUES (\(account.id), \(person.id))
        ON CONFLICT DO NOTHING
        """, on: connection)
      let wasMatch =
        try await self.status(of: person.id, in: account.id, on: connection) == LikeStatus.matched
      try await self.endEverything(between: account.id, and: person.id, on: connection)
      if wasMatch {
        try await self.recordEvent(
          "unmatched", personID: account.id, accountID: person.id, on: connection)
      }
      return (.done, wasMatch ? person.id : nil)
    }
    if let told { eventSignal.signal(told) }
    return outcome
  }

  package func unmatch(_ personID: String, by account: AccountRecord) async throws -> Bool {
    let id = personID.lowercased()
    let (ended, told) = try await transaction { connection -> (Bool, String?) in
      try await self.lockPair(account.id, id, on: connection)
      guard
        try await self.status(of: id, in: account.id, on: connection) == LikeStatus.matched
      else { return (false, nil) }
      guard try await self.account(id: id, on: connection) != nil else {
        try await self.setStatus(LikeStatus.ended, of: id, in: account.id, on: connection)
        return (true, nil)
      }
      try await self.endEverything(between: account.id, and: id, on: connection)
      try await self.recordEvent("unmatched", personID: account.id, accountID: id, on: connection)
      return (true, id)
    }
    if let told { eventSignal.signal(told) }
    return ended
  }

  /// `account` likes back `person`, who liked it: a match in both lists, an event for each.
  func matchAccounts(
    _ account: AccountRecord, _ person: AccountRecord, on connection: PostgresConnection
  ) async throws {
    try await markMatched(person.id, in: account.id, on: connection)
    try await recordEvent(
      "mutualMatch", personID: person.id, accountID: account.id, on: connection)
    if try await status(of: account.id, in: person.id, on: connection) == nil {
      try await insert(
        account.asPerson, for: person.id, status: LikeStatus.matched, on: connection)
    } else {
      try await markMatched(account.id, in: person.id, on: connection)
    }
    try await recordEvent(
      "mutualMatch", personID: account.id, accountID: person.id, on: connection)
  }

  func account(id: String, on connection: PostgresConnection) async throws -> AccountRecord? {
    try await rows(
      "SELECT id, username, name, password_hash FROM account WHERE id = \(id)",
      as: (String, String, String, String).self, on: connection
    ).first.map(AccountRecord.init)
  }

  private func endEverything(
    between one: String, and other: String, on connection: PostgresConnection
  ) async throws {
    try await setStatus(LikeStatus.ended, of: other, in: one, on: connection)
    try await setStatus(LikeStatus.ended, of: one, in: other, on: connection)
    let (low, high) = Self.pair(one, other)
    try await execute(
      "DELETE FROM talk_message WHERE low_id = \(low) AND high_id = \(high)", on: connection)
  }

  /// The account `personID` names, unless it is `account` or a block stands between them.
  private func visibleAccount(
    _ personID: String, to account: AccountRecord, lockingThePair: Bool = false,
    on connection: PostgresConnection
  ) async throws -> AccountRecord? {
    let id = personID.lowercased()
    guard id != account.id else { return nil }
    guard lockingThePair else {
      return try await rows(
        """
        SELECT id, username, name, password_hash FROM account a WHERE a.id = \(id)
          AND NOT EXISTS (
            SELECT 1 FROM person_block
            WHERE (blocker_id = \(account.id) AND blocked_id = \(id))
              OR (blocker_id = \(id) AND blocked_id = \(account.id)))
        """, as: (String, String, String, String).self, on: connection
      ).first.map(AccountRecord.init)
    }
    let (low, high) = Self.pair(account.id, id)
    return try await rows(
      PostgresStatements.VisiblePersonLockingPair(
        personID: id, accountID: account.id, pairKey: low + " " + high), on: connection
    ).first.map(AccountRecord.init)
  }

  private static func isOwn(_ personID: String, _ account: AccountRecord) -> Bool {
    personID.lowercased() == account.id
  }

  private func status(of personID: String, in accountID: String, on connection: PostgresConnection)
    async throws -> String?
  {
    try await rows(
      "SELECT status FROM incoming_like WHERE account_id = \(accountID) AND id = \(personID)",
      as: String.self, on: connection
    ).first
  }

  /// `status(of:in:)` both ways in one round trip: `accountID`'s like in the other's list,
  /// and the other's in `accountID`'s.
  private func setStatus(
    _ status: String, of personID: String, in accountID: String,
    on connection: PostgresConnection
  ) async throws {
    try await execute(
      """
      UPDATE incoming_like SET status = \(status)
      WHERE account_id = \(accountID) AND id = \(personID)
      """, on: connection)
  }
}
