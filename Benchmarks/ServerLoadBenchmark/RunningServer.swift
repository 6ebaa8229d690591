import Foundation

/// The server under load: one already running, or `app serve --port 0` on a fresh data
/// folder, started here and stopped with SIGTERM at the end.
final class RunningServer {
  let url: URL
  private let process: Process?
  private let folder: URL?

  private init(url: URL, process: Process?, folder: URL?) {
    self.url = url
    self.process = process
    self.folder = folder
  }

  static func external(_ url: URL) -> RunningServer {
    RunningServer(url: url, process: nil, folder: nil)
  }

  /// Starts `app serve` and waits for the URL it prints on stdout. Its access log (stderr)
  /// is discarded: writing 10,000 lines a second is not what is measured.
  static func start(app: URL) throws -> RunningServer {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "server-load-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = app
    process.arguments = ["serve", "--demo", "--port", "0", "--data-dir", folder.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var printed = Data()
    while !printed.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else {
        throw UsageError("\(app.path) serve ended before printing its URL")
      }
      printed.append(chunk)
    }
    let line = String(decoding: printed, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    guard let url = URL(string: line) else { throw UsageError("app serve printed \(line)") }
    return RunningServer(url: url, process: process, folder: folder)
  }

  func stop() {
    guard let process else { return }
    process.terminate()
    process.waitUntilExit()
    if let folder { try? FileManager.default.removeItem(at: folder) }
  }
}
