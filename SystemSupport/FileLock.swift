import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive lock shared by every process, held on `<file>.lock` while `body` runs.
///
/// Opening a new database file runs its migrations; two `app` processes started together
/// would both find the file new and both create its tables. SQLite's own locks do not
/// cover that check-then-create, so the opening itself is serialised here.
///
/// Waiting for the lock blocks, so the lock is taken, and `body` run, on a thread of its own
/// (`BlockingCall`), never on the cooperative pool.
public enum FileLock {
  public static func withExclusiveLock<T: Sendable>(
    beside file: URL, _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await BlockingCall.run("app.file-lock") { try lockedSynchronously(beside: file, body) }
  }

  private static func lockedSynchronously<T>(beside file: URL, _ body: () throws -> T) throws -> T {
    let path = file.path + ".lock"
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
      }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }
}
