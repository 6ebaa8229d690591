import Foundation
import GRDB

/// A row of the embedded backend's `token` table: an issued token, known by its hash.
struct TokenRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "token"

  var tokenHash: String
  var accountID: String
  /// Unix seconds.
  var createdAt: Int
  /// Seconds; valid while now < createdAt + expiresIn (`BackendDatabase.account`).
  var expiresIn: Int
  var scope: String
}
