import GRDB

/// A row of the embedded backend's `account` table.
struct AccountRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "account"

  var id: String
  var username: String
  var name: String
  var passwordHash: String

  enum Columns {
    static let username = Column(CodingKeys.username)
  }
}
