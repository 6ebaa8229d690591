import Foundation
import GRDB

/// The backend's file could not be used, in words that name the file and what to do, instead
/// of SQLite's ("SQLite error 26 … while executing `SELECT * FROM sqlite_master`").
public struct BackendFileError: Error, CustomStringConvertible {
  public let file: URL
  public let description: String
  /// SQLite's own error, for a client that words the file's problems itself.
  package let sqliteError: DatabaseError

  init(file: URL, sqlite error: DatabaseError) {
    self.file = file
    sqliteError = error
    switch error.resultCode {
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      description =
        "The backend's file \(file.path) is damaged or not a database (SQLite: \(error.message ?? "corrupt")). "
        + "Move it aside to start a new backend (its accounts stay in the moved file), or use "
        + "another --data-dir."
    case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
      description =
        "The backend's file \(file.path) cannot be opened for writing (SQLite: \(error.message ?? "cannot open")). "
        + "Check that its folder is writable, or use another --data-dir."
    case .SQLITE_FULL:
      description = "The disk holding \(file.path) is full."
    default:
      description =
        "The backend's file \(file.path) cannot be used: SQLite error \(error.resultCode.rawValue) (\(error.message ?? "unknown"))."
    }
  }
}
