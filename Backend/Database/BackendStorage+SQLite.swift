import Foundation

extension BackendStorage {
  /// A SQLite file, made with its schema if it is new: the embedded backend's (`.rollback`,
  /// in `app`), and `app serve`'s on one machine (`.writeAheadLog`, the default).
  public static func sqliteFile(
    _ file: URL, journal: SQLiteJournal = .writeAheadLog
  ) -> BackendStorage {
    BackendStorage { metrics in
      switch journal {
      case .writeAheadLog:
        try await BackendDatabase.open(
          at: file, statementTook: metrics === ServerMetrics.none ? nil : metrics.statement)
      case .rollback:
        try await BackendDatabase.openWithRollbackJournal(at: file)
      }
    }
  }
}
