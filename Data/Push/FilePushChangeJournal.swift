import Domain
import Foundation

/// The push change under way, kept in `push-change.json` in the data folder (owner-only, as
/// every file there). Written before a change's first call and removed once both backends
/// agree, so that a process killed in between leaves it for the next push command.
public struct FilePushChangeJournal: PushChangeJournal {
  private let file: URL

  public init(file: URL) {
    self.file = file
  }

  public func pending() throws -> PendingPushChange? {
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    guard
      let decoded = try? JSONDecoder().decode(PendingPushChange.self, from: Data(contentsOf: file))
    else {
      // A record cut off mid-write names no change: the change it was for never started,
      // because the record is written before the first call.
      try finish()
      return nil
    }
    return decoded
  }

  public func begin(_ change: PendingPushChange) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Atomic: the file is either the whole record or not there.
    try encoder.encode(change).write(to: file, options: .atomic)
  }

  public func finish() throws {
    guard FileManager.default.fileExists(atPath: file.path) else { return }
    try FileManager.default.removeItem(at: file)
  }
}
