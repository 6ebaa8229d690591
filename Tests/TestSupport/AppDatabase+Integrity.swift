import Data

extension AppDatabase {
  /// SQLite's own check of every page and index: true when the file is sound.
  public func isIntact() async throws -> Bool {
    try await read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"] }
  }
}
