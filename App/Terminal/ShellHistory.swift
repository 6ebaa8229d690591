import Foundation

/// The shell's history file in the data folder: one command per line, owner-only (0600),
/// the last `limit` kept. Only lines the shell accepted as commands reach it; passwords are
/// asked for apart from the prompt and never do.
struct ShellHistory: Sendable {
  static let fileName = "shell-history"
  static let limit = 500

  let file: URL

  /// The remembered lines, oldest first; none when the file is missing or unreadable.
  func load() -> [String] {
    guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Adds `line`, dropping the oldest beyond the limit. A history that cannot be written
  /// is not worth stopping the shell for: the line is still in this session's history.
  func append(_ line: String) {
    guard !line.contains("\n") else { return }
    var lines = load()
    if lines.last != line { lines.append(line) }
    let kept = lines.suffix(Self.limit).joined(separator: "\n") + "\n"
    do {
      try Data(kept.utf8).write(to: file, options: .atomic)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    } catch {
      return
    }
  }
}
