import Foundation

/// A line editor's history file: one line per line, owner-only (0600), the last `limit`
/// kept. Only the lines its owner hands to `LineEditor.remember` reach it; passwords are
/// read apart from the history and never do.
public struct HistoryFile: Sendable {
  public let file: URL
  public let limit: Int

  public init(file: URL, limit: Int = 500) {
    self.file = file
    self.limit = limit
  }

  /// The remembered lines, oldest first; none when the file is missing or unreadable.
  func load() -> [String] {
    guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Adds `line`, dropping the oldest beyond the limit. A history that cannot be written
  /// is not worth stopping the program for: the line is still in this session's history.
  func append(_ line: String) {
    guard !line.contains("\n") else { return }
    var lines = load()
    if lines.last != line { lines.append(line) }
    let kept = lines.suffix(limit).joined(separator: "\n") + "\n"
    do {
      try Data(kept.utf8).write(to: file, options: .atomic)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    } catch {
      return
    }
  }
}
