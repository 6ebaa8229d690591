import GRDB

/// A row of the embedded backend's `conversation` table: somebody an account can have
/// messages with, even none. Each account has its own.
struct PersonRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "conversation"
  var accountID: String
  var name: String

  enum Columns {
    static let accountID = Column(CodingKeys.accountID)
  }
}

/// A row of the embedded backend's `conversationMessage` table. `id` keeps the order
/// messages came in.
struct MessageRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "conversationMessage"

  var id: Int64?
  var accountID: String
  var person: String
  var subject: String
  var text: String

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let accountID = Column(CodingKeys.accountID)
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}
