import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Whether this process's stderr goes to systemd's journal: systemd sets `JOURNAL_STREAM`
/// to the `device:inode` of the stream it connected, and the stream is still ours only when
/// stderr's own match (a child whose stderr was redirected inherits the variable).
public enum SystemdJournal {
  public static func receivesStandardError(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    guard let value = environment["JOURNAL_STREAM"] else { return false }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
      return false
    }
    var status = stat()
    guard fstat(STDERR_FILENO, &status) == 0 else { return false }
    return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
  }
}
