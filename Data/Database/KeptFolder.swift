import Domain
import Foundation
import Synchronization

/// The folder a database file lives in, as it was when the file was opened, for the
/// reopenings that follow: a folder removed mid-session is made again (owner-only, and only
/// where its parent still is), and one that another has taken the place of is told apart
/// from the one the file was in, so that what happened can be said.
final class KeptFolder: Sendable {
  /// What a reopening found of the folder.
  enum Change: Equatable {
    /// The folder the file was opened in.
    case none
    /// It was gone, and was made again.
    case madeAgain
    /// Another folder stands at its path.
    case replaced
  }

  private let url: URL
  /// The folder's device and inode when last seen: what "the same folder" means.
  private let identity: Mutex<Identity?>

  private struct Identity: Equatable {
    let device: UInt64
    let inode: UInt64
  }

  init(_ url: URL) {
    self.url = url
    identity = Mutex(Self.identity(of: url.path))
  }

  /// Before a reopening: makes the folder again when it is gone, and says what changed.
  /// Throws `folderGone` for `file` when it cannot be made (its parent is gone too).
  func prepare(for file: URL) throws -> Change {
    if let now = Self.identity(of: url.path) {
      return identity.withLock { seen in
        defer { seen = now }
        return seen == nil || seen == now ? .none : .replaced
      }
    }
    // Owner-only, as the data folder is made at start: the umask is 077 already.
    guard mkdir(url.path, 0o700) == 0 || errno == EEXIST else {
      throw LocalStorageError(file: file.path, problem: .folderGone)
    }
    identity.withLock { $0 = Self.identity(of: url.path) }
    return .madeAgain
  }

  private static func identity(of path: String) -> Identity? {
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
    return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }
}
