import Foundation
import GRDB

extension BackendDatabase {
  func signInFailures(keys: [String]) throws -> [String: SignInFailures] {
    try readWithoutTransaction { db in
      var found: [String: SignInFailures] = [:]
      for key in keys {
        let row = try Row.fetchOne(
          db.cachedStatement(
            sql: "SELECT count, lastAt, waitUntil FROM signInFailure WHERE key = ?"),
          arguments: [key])
        if let row { found[key] = Self.failures(row) }
      }
      return found
    }
  }

  func recordSignInFailure(
    keys: [String], update: (_ key: String, SignInFailures?) -> SignInFailures
  ) throws {
    try writer.write { db in
      for key in keys {
        let current = try Row.fetchOne(
          db, sql: "SELECT count, lastAt, waitUntil FROM signInFailure WHERE key = ?",
          arguments: [key]
        ).map(Self.failures)
        let next = update(key, current)
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO signInFailure (key, count, lastAt, waitUntil)
            VALUES (?, ?, ?, ?)
            """,
          arguments: [
            key, next.count, next.last.timeIntervalSince1970, next.waitUntil.timeIntervalSince1970,
          ])
      }
    }
  }

  func clearSignInFailures(key: String) throws {
    // Every right password asks this: most accounts have nothing to clear, and a write
    // would wait for the disk.
    guard try !signInFailures(keys: [key]).isEmpty else { return }
    try writer.write { db in
      try db.execute(sql: "DELETE FROM signInFailure WHERE key = ?", arguments: [key])
    }
  }

  func forgetSignInFailures(lastBefore: Date, waitEndedBy now: Date) throws {
    try writer.write { db in
      try db.execute(
        sql: "DELETE FROM signInFailure WHERE lastAt < ? AND waitUntil <= ?",
        arguments: [lastBefore.timeIntervalSince1970, now.timeIntervalSince1970])
    }
  }

  private static func failures(_ row: Row) -> SignInFailures {
    SignInFailures(
      count: row["count"], last: Date(timeIntervalSince1970: row["lastAt"]),
      waitUntil: Date(timeIntervalSince1970: row["waitUntil"]))
  }
}
