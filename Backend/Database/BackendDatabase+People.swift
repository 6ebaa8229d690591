import Foundation
import GRDB

// Section 5: accounts meet each other. A like is a row in its receiver's list
// (`incomingLike`), keyed by the liker's id: the same list the demo's invented likes are in,
// so `/likes`, `/mutuals` and the events read both alike.
extension BackendDatabase {
  /// The accounts `accountID` may like, newest first: never itself, nor anyone it has liked,
  /// answered, passed or blocked, nor anyone who has blocked it. Every test is a lookup by
  /// key, so a page costs the same on a large server as on a small one.
  func people(accountID: String, from start: PeoplePageStart, batchSize: Int) throws
    -> PeoplePageRows
  {
    let (position, arguments): (String, StatementArguments) =
      switch start {
      case .offset(let offset): ("", ["me": accountID, "limit": batchSize + 1, "offset": offset])
      case .atOrOlderThan(let seq):
        (
          "AND a.joinedSeq <= :seq",
          ["me": accountID, "limit": batchSize + 1, "offset": 0, "seq": seq]
        )
      }
    return try readWithoutTransaction { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT a.id, a.username, a.name, a.joinedSeq FROM account a
          WHERE a.id <> :me \(position)
            AND NOT EXISTS (SELECT 1 FROM incomingLike WHERE accountID = a.id AND id = :me)
            AND NOT EXISTS (
              SELECT 1 FROM incomingLike WHERE accountID = :me AND id = a.id AND status <> 'pending')
            AND NOT EXISTS (SELECT 1 FROM personPass WHERE accountID = :me AND personID = a.id)
            AND NOT EXISTS (SELECT 1 FROM personBlock WHERE blockerID = :me AND blockedID = a.id)
            AND NOT EXISTS (SELECT 1 FROM personBlock WHERE blockerID = a.id AND blockedID = :me)
          ORDER BY a.joinedSeq DESC LIMIT :limit OFFSET :offset
          """)
      var rows: [(person: IncomingLike, joinedSeq: Int64)] = []
      let cursor = try Row.fetchCursor(statement, arguments: arguments)
      while let row = try cursor.next() {
        rows.append(
          (IncomingLike(id: row[0], userName: row[1], avatarURL: nil, name: row[2]), row[3]))
      }
      return PeoplePageRows(rows, batchSize: batchSize)
    }
  }

  func likePerson(_ personID: String, by account: AccountRecord) throws -> PersonLikeOutcome {
    let (outcome, signalled) = try writer.write { db -> (PersonLikeOutcome, [String]) in
      guard let person = try Self.visibleAccount(personID, to: account, in: db) else {
        return (Self.isOwn(personID, account) ? .ownID : .unknownPerson, [])
      }
      // Liked before: nothing changes, and nobody is told again.
      if let mine = try Self.status(of: account.id, in: person.id, db) {
        return (.liked(person.asPerson, mutualMatch: mine == LikeStatus.matched), [])
      }
      let theirs = try Self.status(of: person.id, in: account.id, db)
      if theirs == LikeStatus.pending || theirs == LikeStatus.skipped {
        try Self.matchAccounts(account, person, in: db)
        return (.liked(person.asPerson, mutualMatch: true), [account.id, person.id])
      }
      try Self.insert(account.asPerson, for: person.id, in: db)
      try Self.recordEvent(
        "likedYouInserted", personID: account.id, accountID: person.id, in: db)
      return (.liked(person.asPerson, mutualMatch: false), [person.id])
    }
    for accountID in signalled { eventSignal.signal(accountID) }
    return outcome
  }

  func passPerson(_ personID: String, by account: AccountRecord) throws -> PersonAnswerOutcome {
    try writer.write { db in
      guard let person = try Self.visibleAccount(personID, to: account, in: db) else {
        return Self.isOwn(personID, account) ? .ownID : .unknownPerson
      }
      try db.execute(
        sql: "INSERT OR IGNORE INTO personPass (accountID, personID) VALUES (?, ?)",
        arguments: [account.id, person.id])
      // Their like, if they sent one, is answered: off the account's `/likes`.
      try db.execute(
        sql: "UPDATE incomingLike SET status = ? WHERE accountID = ? AND id = ? AND status = ?",
        arguments: [LikeStatus.skipped, account.id, person.id, LikeStatus.pending])
      return .done
    }
  }

  func blockPerson(_ personID: String, by account: AccountRecord) throws -> PersonAnswerOutcome {
    let (outcome, told) = try writer.write { db -> (PersonAnswerOutcome, String?) in
      guard let person = try Self.visibleAccount(personID, to: account, in: db) else {
        return (Self.isOwn(personID, account) ? .ownID : .unknownPerson, nil)
      }
      try db.execute(
        sql: "INSERT OR IGNORE INTO personBlock (blockerID, blockedID) VALUES (?, ?)",
        arguments: [account.id, person.id])
      let wasMatch = try Self.status(of: person.id, in: account.id, db) == LikeStatus.matched
      try Self.endEverything(between: account.id, and: person.id, in: db)
      // The blocked account learns what an unmatch would tell it, and nothing more.
      if wasMatch {
        try Self.recordEvent("unmatched", personID: account.id, accountID: person.id, in: db)
      }
      return (.done, wasMatch ? person.id : nil)
    }
    if let told { eventSignal.signal(told) }
    return outcome
  }

  func unmatch(_ personID: String, by account: AccountRecord) throws -> Bool {
    let (ended, told) = try writer.write { db -> (Bool, String?) in
      let id = personID.lowercased()
      guard try Self.status(of: id, in: account.id, db) == LikeStatus.matched else {
        return (false, nil)
      }
      guard try AccountRecord.exists(db, key: id) else {
        // An invented match: nobody to tell.
        try Self.setStatus(LikeStatus.ended, of: id, in: account.id, db)
        return (true, nil)
      }
      try Self.endEverything(between: account.id, and: id, in: db)
      try Self.recordEvent("unmatched", personID: account.id, accountID: id, in: db)
      return (true, id)
    }
    if let told { eventSignal.signal(told) }
    return ended
  }

  /// `account` likes back `person`, who liked it: a match in both lists, and an event for
  /// each.
  static func matchAccounts(_ account: AccountRecord, _ person: AccountRecord, in db: Database)
    throws
  {
    try markMatched(person.id, in: account.id, db)
    try recordEvent("mutualMatch", personID: person.id, accountID: account.id, in: db)
    if try status(of: account.id, in: person.id, db) == nil {
      try insert(account.asPerson, for: person.id, status: LikeStatus.matched, in: db)
    } else {
      try markMatched(account.id, in: person.id, db)
    }
    try recordEvent("mutualMatch", personID: account.id, accountID: person.id, in: db)
  }

  /// Ends whatever is between two accounts: each is off the other's lists for good, and
  /// their conversation is gone.
  private static func endEverything(between one: String, and other: String, in db: Database)
    throws
  {
    try setStatus(LikeStatus.ended, of: other, in: one, db)
    try setStatus(LikeStatus.ended, of: one, in: other, db)
    let (low, high) = pair(one, other)
    try db.execute(
      sql: "DELETE FROM talkMessage WHERE lowID = ? AND highID = ?", arguments: [low, high])
  }

  /// The account `personID` names, unless it is `account` or a block stands between them:
  /// to a blocked account, the blocker is unknown.
  private static func visibleAccount(
    _ personID: String, to account: AccountRecord, in db: Database
  ) throws -> AccountRecord? {
    let id = personID.lowercased()
    guard id != account.id,
      let person = try AccountRecord.fetchOne(
        db.cachedStatement(sql: "SELECT * FROM account WHERE id = ?"), arguments: [id])
    else {
      return nil
    }
    let blocked = try Bool.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT EXISTS (
            SELECT 1 FROM personBlock
            WHERE (blockerID = ? AND blockedID = ?) OR (blockerID = ? AND blockedID = ?))
          """), arguments: [account.id, id, id, account.id])!
    return blocked ? nil : person
  }

  private static func isOwn(_ personID: String, _ account: AccountRecord) -> Bool {
    personID.lowercased() == account.id
  }

  /// The status of `personID` in the list of `accountID`; nil when they never liked it.
  private static func status(of personID: String, in accountID: String, _ db: Database) throws
    -> String?
  {
    try String.fetchOne(
      db.cachedStatement(sql: "SELECT status FROM incomingLike WHERE accountID = ? AND id = ?"),
      arguments: [accountID, personID])
  }

  private static func setStatus(
    _ status: String, of personID: String, in accountID: String, _ db: Database
  ) throws {
    try db.execute(
      sql: "UPDATE incomingLike SET status = ? WHERE accountID = ? AND id = ?",
      arguments: [status, accountID, personID])
  }
}
