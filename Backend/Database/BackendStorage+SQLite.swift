import Foundation

extension BackendStorage {
  /// A SQLite file, made with its schema if it is new: the embedded backend's, and `app serve`'s
  /// on one machine.
  public static func sqliteFile(_ file: URL) -> BackendStorage {
    BackendStorage { metrics in
      try await BackendDatabase.open(
        at: file, statementTook: metrics === ServerMetrics.none ? nil : metrics.statement)
    }
  }
}
