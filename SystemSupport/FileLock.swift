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
    guard descriptor >= 0 else { throw FileLockError(path: path, errno: errno) }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw FileLockError(path: path, errno: errno) }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }
}

/// The lock file could not be opened or locked, with the system's reason: its folder gone
/// (`ENOENT`), read-only (`EROFS`, `EACCES`, `EPERM` for a file made immutable), full
/// (`ENOSPC`), or a failing disk (`EIO`).
public struct FileLockError: Error, Equatable, CustomStringConvertible {
  public let path: String
  public let errno: Int32

  public init(path: String, errno: Int32) {
    self.path = path
    self.errno = errno
  }

  public var description: String { "Cannot lock \(path): \(String(cString: strerror(errno)))" }
}
