import Domain
import Foundation
import GRDB
import SystemSupport
import Testing

@testable import Data

/// SQLite's failures on the app's file, named as what a person can act on.
@Suite(.timeLimit(.minutes(1))) struct AppDatabaseErrorTests {
  private static let file = URL(fileURLWithPath: "/tmp/app-database-error-test/app.sqlite")

  @Test(arguments: [
    (ResultCode.SQLITE_FULL, LocalStorageError.Problem.diskFull),
    (.SQLITE_READONLY, .readOnly),
    (.SQLITE_PERM, .readOnly),
    (.SQLITE_IOERR, .ioFailure),
    (.SQLITE_CANTOPEN, .folderGone),
    (.SQLITE_BUSY, .busy),
    (.SQLITE_LOCKED, .busy),
  ])
  func sqliteFailures_areNamedProblems(_ code: ResultCode, _ expected: LocalStorageError.Problem) {
    let mapped = AppDatabaseError.map(DatabaseError(resultCode: code), file: Self.file)

    #expect(
      mapped as? LocalStorageError == LocalStorageError(file: Self.file.path, problem: expected))
  }

  @Test(arguments: [
    (ENOENT, LocalStorageError.Problem.folderGone),
    (ENOSPC, .diskFull),
    (EROFS, .readOnly),
    (EPERM, .readOnly),
    (EACCES, .readOnly),
    (EIO, .ioFailure),
  ])
  func theLockBesideTheFile_failsAsTheFile(_ code: Int32, _ expected: LocalStorageError.Problem) {
    let failure = FileLockError(path: Self.file.path + ".lock", errno: code)

    #expect(
      AppDatabaseError.map(failure, file: Self.file) as? LocalStorageError
        == LocalStorageError(file: Self.file.path, problem: expected),
      "never a Cocoa error's \"permission denied\" for a folder that is gone")
  }

  @Test func aFullWALIndex_isAFullDisk_andAnythingElseKeepsSQLitesWords() {
    let shm = DatabaseError(resultCode: ResultCode(rawValue: 10 | (19 << 8)))
    let misuse = DatabaseError(
      resultCode: .SQLITE_MISUSE, message: "bad parameter or other API misuse")

    #expect(
      (AppDatabaseError.map(shm, file: Self.file) as? LocalStorageError)?.problem == .diskFull)
    #expect(
      (AppDatabaseError.map(misuse, file: Self.file) as? LocalStorageError)?.problem
        == .other("SQLite error 21: bad parameter or other API misuse"))
    #expect(AppDatabaseError.map(CancellationError(), file: Self.file) is CancellationError)
  }
}
