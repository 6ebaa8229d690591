import Domain
import Foundation
import GRDB

/// `NotificationCenterStateStore` in the app's database, per account: the unblur window's
/// end survives every run and is compared with the clock at each one.
public struct GRDBNotificationCenterStateStore: NotificationCenterStateStore {
  private let database: AppDatabase
  private let account: String

  public init(database: AppDatabase, account: String) {
    self.database = database
    self.account = account
  }

  public func unblurEndDate() async throws -> Date? {
    try await database.read { [account] db in
      try Double.fetchOne(
        db, sql: "SELECT unblurEndDate FROM notificationCenterState WHERE account = ?",
        arguments: [account]
      ).map(Date.init(timeIntervalSince1970:))
    }
  }

  public func setUnblurEndDate(_ date: Date?) async throws {
    try await database.write { [account] db in
      // An upsert, not a replace: the badge in the same row must survive.
      try db.execute(
        sql: """
          INSERT INTO notificationCenterState (account, unblurEndDate) VALUES (?, ?)
          ON CONFLICT(account) DO UPDATE SET unblurEndDate = excluded.unblurEndDate
          """,
        arguments: [account, date?.timeIntervalSince1970])
    }
  }

  public func unreadCount() async throws -> Int {
    try await database.read { [account] db in
      try Int.fetchOne(
        db, sql: "SELECT unread FROM notificationCenterState WHERE account = ?",
        arguments: [account]) ?? 0
    }
  }

  public func countLike(seq: Int, unkept: Int) async throws -> Int {
    try await database.write { [account] db in
      // One transaction: two clients counting the same event see each other's number.
      try db.execute(
        sql: """
          INSERT INTO notificationCenterState (account, unread, countedSeq) VALUES (?, ? + 1, ?)
          ON CONFLICT(account) DO UPDATE SET
            unread = unread + excluded.unread - 1
              + (countedSeq IS NULL OR excluded.countedSeq > countedSeq),
            countedSeq = max(coalesce(countedSeq, excluded.countedSeq), excluded.countedSeq)
          """,
        arguments: [account, unkept, seq])
      return try Self.unread(db, account)
    }
  }

  public func eventsStand(at last: Int) async throws -> Int {
    try await database.write { [account] db in
      try db.execute(
        sql: """
          UPDATE notificationCenterState SET unread = 0, countedSeq = ?
          WHERE account = ? AND countedSeq > ?
          """,
        arguments: [last, account, last])
      return try Self.unread(db, account)
    }
  }

  public func countsLikes(ofAccount id: String) async throws -> Bool {
    try await database.write { [account] db in
      let counted = try String.fetchOne(
        db, sql: "SELECT serverAccountID FROM notificationCenterState WHERE account = ?",
        arguments: [account])
      try db.execute(
        sql: """
          INSERT INTO notificationCenterState (account, serverAccountID) VALUES (?, ?)
          ON CONFLICT(account) DO UPDATE SET
            unread = CASE WHEN serverAccountID <> excluded.serverAccountID THEN 0 ELSE unread END,
            countedSeq =
              CASE WHEN serverAccountID <> excluded.serverAccountID THEN NULL ELSE countedSeq END,
            serverAccountID = excluded.serverAccountID
          """,
        arguments: [account, id])
      return counted != nil && counted != id
    }
  }

  private static func unread(_ db: Database, _ account: String) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT unread FROM notificationCenterState WHERE account = ?",
      arguments: [account]) ?? 0
  }

  public func look(clearingUnread: Bool) async throws -> NotificationCenterState {
    let read = { @Sendable [account] (db: Database) throws -> NotificationCenterState in
      let row = try Row.fetchOne(
        db, sql: "SELECT unblurEndDate, unread FROM notificationCenterState WHERE account = ?",
        arguments: [account])
      let end: Double? = row?["unblurEndDate"]
      return NotificationCenterState(
        unblurEndDate: end.map(Date.init(timeIntervalSince1970:)), unread: row?["unread"] ?? 0)
    }
    guard clearingUnread else { return try await database.read(read) }
    // One transaction: a like counted by another process between the read and the clear
    // would be cleared unseen.
    return try await database.write { [account] db in
      let state = try read(db)
      if state.unread > 0 {
        try db.execute(
          sql: "UPDATE notificationCenterState SET unread = 0 WHERE account = ?",
          arguments: [account])
      }
      return state
    }
  }
}
