import GRDB

/// A row of the embedded backend's `person` table: somebody who can have messages, even none.
struct PersonRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "person"
  var name: String
}

/// A row of the embedded backend's `message` table. `id` keeps the order messages came in.
struct MessageRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "message"

  var id: Int64?
  var person: String
  var subject: String
  var text: String

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let person = Column(CodingKeys.person)
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}
