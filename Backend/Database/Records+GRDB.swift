import GRDB

// The storage records (Backend/Storage) as rows of the SQLite store's tables. The
// conformances live here, beside the one store that uses GRDB, so that the records stay the
// plain vocabulary every store shares.

extension AccountRecord: FetchableRecord, PersistableRecord {
  package static let databaseTableName = "account"

  package enum Columns {
    static let username = Column("username")
  }
}

extension TokenRecord: FetchableRecord, PersistableRecord {
  package static let databaseTableName = "token"
}

extension PersonRecord: FetchableRecord, PersistableRecord {
  package static let databaseTableName = "conversation"

  package enum Columns {
    static let accountID = Column("accountID")
  }
}

extension MessageRecord: FetchableRecord, MutablePersistableRecord {
  package static let databaseTableName = "conversationMessage"

  package enum Columns {
    static let id = Column("id")
    static let accountID = Column("accountID")
  }

  package mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}
