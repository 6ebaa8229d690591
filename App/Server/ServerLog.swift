import ArgumentParser
import Backend
import Foundation

/// What `app serve` writes to stderr: the access log and its own notes (listening,
/// stopped), as text for a person, or as JSON lines for a log collector (`--log-format
/// json`). Never a header or a body, so never a token or a password.
struct ServerLog: Sendable {
  enum Format: String, CaseIterable, Sendable, ExpressibleByArgument {
    case text
    case json
  }

  let format: Format
  let io: AppIO

  /// One answered request: `… info serve: GET /me 200 1.2 ms request=5f0c…` as text.
  func request(_ entry: AccessLogEntry) {
    switch format {
    case .text:
      let time = Date().formatted(.iso8601)
      let ms = String(format: "%.1f", entry.milliseconds)
      io.writeError(
        "\(time) info serve: \(entry.method) \(entry.path) \(entry.status) \(ms) ms request=\(entry.requestID)\n"
      )
    case .json:
      write(
        RequestLine(
          time: Date().formatted(.iso8601), requestID: entry.requestID, method: entry.method,
          path: entry.path, status: entry.status,
          milliseconds: (entry.milliseconds * 10).rounded() / 10))
    }
  }

  /// A line of the server's own, such as "Serving on …": as it is for a person, or as a JSON
  /// line with a `message`.
  func note(_ message: String, console: Console) {
    switch format {
    case .text: console.message(message)
    case .json: write(NoteLine(time: Date().formatted(.iso8601), message: message))
    }
  }

  private struct RequestLine: Encodable {
    let time: String
    let level = "info"
    let requestID: String
    let method: String
    let path: String
    let status: Int
    let milliseconds: Double
  }

  private struct NoteLine: Encodable {
    let time: String
    let level = "info"
    let message: String
  }

  private func write(_ line: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(line) else { return }
    io.writeError(String(decoding: data, as: UTF8.self) + "\n")
  }
}
