import Foundation
import GRDB

extension BackendDatabase {
  func insertPushSession(hash: String, accountID: String) throws {
    try writer.write { db in
      try db.execute(
        sql: "INSERT INTO pushSession (sessionHash, accountID) VALUES (?, ?)",
        arguments: [hash, accountID])
    }
  }

  func pushSessionAccount(hash: String) throws -> String? {
    try writer.read { db in
      try String.fetchOne(
        db, sql: "SELECT accountID FROM pushSession WHERE sessionHash = ?", arguments: [hash])
    }
  }

  /// The device uuid the account's push registration belongs to, if any.
  func pushRegistration(accountID: String) throws -> String? {
    try writer.read { db in
      try String.fetchOne(
        db, sql: "SELECT uuid FROM pushRegistration WHERE accountID = ?", arguments: [accountID])
    }
  }

  func setPushRegistration(accountID: String, uuid: String, token: String) throws {
    try writer.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO pushRegistration (accountID, uuid, token) VALUES (?, ?, ?)",
        arguments: [accountID, uuid, token])
    }
  }

  func deletePushRegistrations(uuid: String) throws {
    try writer.write { db in
      try db.execute(sql: "DELETE FROM pushRegistration WHERE uuid = ?", arguments: [uuid])
    }
  }

  func isVendorRegistered(uuid: String) throws -> Bool {
    try writer.read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM vendorRegistration WHERE uuid = ?)",
        arguments: [uuid])
        ?? false
    }
  }

  func setVendorRegistration(uuid: String, registered: Bool) throws {
    try writer.write { db in
      if registered {
        try db.execute(
          sql: "INSERT OR IGNORE INTO vendorRegistration (uuid) VALUES (?)", arguments: [uuid])
      } else {
        try db.execute(sql: "DELETE FROM vendorRegistration WHERE uuid = ?", arguments: [uuid])
      }
    }
  }
}
