import Domain
import Foundation
import GRDB
import SystemSupport

/// SQLite's failures on a database file of the app's data folder (the app's own, and the
/// embedded backend's), named as Domain's `LocalStorageError`: a person reads "the disk
/// holding … is full", never "SQLite error 13 … COMMIT TRANSACTION".
package enum AppDatabaseError {
  /// `error` as a `LocalStorageError` on `file` when it is SQLite's; anything else as it is.
  package static func map(_ error: any Error, file: URL) -> any Error {
    if let lock = error as? FileLockError { return map(lock, file: file) }
    guard let error = error as? DatabaseError else { return error }
    let problem: LocalStorageError.Problem
    switch error.resultCode {
    case .SQLITE_FULL:
      problem = .diskFull
    case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
      problem = .readOnly
    case .SQLITE_CANTOPEN:
      let folder = file.deletingLastPathComponent().path
      problem = FileManager.default.fileExists(atPath: folder) ? .readOnly : .folderGone
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      // A lock another process kept past the busy wait: nothing is wrong with the file, so
      // "move it aside" (what `.other` advises) would throw a good cache away.
      problem = .busy
    case .SQLITE_IOERR:
      // A write that found no room is an I/O error to SQLite in places (the WAL index).
      problem = error.extendedResultCode.rawValue == sqliteIOErrorNoSpace ? .diskFull : .ioFailure
    default:
      problem = .other("SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")")
    }
    return LocalStorageError(file: file.path, problem: problem)
  }

  /// The lock beside the file, which every opening takes, said as the file's trouble.
  private static func map(_ error: FileLockError, file: URL) -> LocalStorageError {
    let problem: LocalStorageError.Problem =
      switch error.errno {
      case ENOENT: .folderGone
      case ENOSPC, EDQUOT: .diskFull
      case EROFS, EACCES, EPERM: .readOnly
      case EIO: .ioFailure
      default: .other(error.description)
      }
    return LocalStorageError(file: file.path, problem: problem)
  }

  /// SQLITE_IOERR_SHMSIZE: the shared-memory index could not grow, as on a full disk.
  private static let sqliteIOErrorNoSpace: Int32 = 10 | (19 << 8)
}
