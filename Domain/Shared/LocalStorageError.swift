/// A file of this machine's (the likes cache, the app's database) could not be read or
/// written, in terms a person can act on: which file, and what the system said of it.
public struct LocalStorageError: Error, Equatable, Sendable {
  public enum Problem: Equatable, Sendable {
    /// The disk holding the file is full.
    case diskFull
    /// The file, its folder or its disk cannot be written.
    case readOnly
    /// The disk failed a read or a write.
    case ioFailure
    /// The file's folder no longer exists.
    case folderGone
    /// Another process held the file locked for longer than the app waits.
    case busy
    /// Anything else, in the storage engine's own words.
    case other(String)
  }

  /// The file's path.
  public let file: String
  public let problem: Problem

  public init(file: String, problem: Problem) {
    self.file = file
    self.problem = problem
  }
}
