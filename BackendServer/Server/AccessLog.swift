import Backend
import Foundation

/// What a served backend writes to its log: each answered request, as text for a person or
/// as JSON lines for a log collector. Never a header or a body, so never a token or a
/// password.
public struct AccessLog: Sendable {
  public enum Format: String, CaseIterable, Sendable {
    case text
    case json
  }

  public let format: Format
  private let now: @Sendable () -> Date
  private let write: @Sendable (String) -> Void
  private let timestamps: Bool

  /// `write` takes whole lines, newline included (`app serve`: stderr). Without
  /// `timestamps` (under systemd, whose journal stamps each line itself), text lines start
  /// at their level; JSON lines keep their `time` member, a field a collector reads.
  public init(
    format: Format, now: @escaping @Sendable () -> Date,
    write: @escaping @Sendable (String) -> Void, timestamps: Bool = true
  ) {
    self.format = format
    self.now = now
    self.write = write
    self.timestamps = timestamps
  }

  /// One answered request: `… info serve: GET /me 200 1.2 ms request=5f0c…` as text. A
  /// failure no route expected is an `error` line that ends with what failed, on one line.
  public func request(_ entry: AccessLogEntry) {
    let time = now().formatted(.iso8601)
    let failure = entry.failure.map(Self.oneLine)
    let level = failure == nil ? "info" : "error"
    switch format {
    case .text:
      let ms = String(format: "%.1f", entry.milliseconds)
      let stamp = timestamps ? "\(time) " : ""
      let why = failure.map { ": \($0)" } ?? ""
      write(
        "\(stamp)\(level) serve: \(entry.method) \(entry.path) \(entry.status) \(ms) ms request=\(entry.requestID)\(why)\n"
      )
    case .json:
      writeJSON(
        RequestLine(
          time: time, level: level, requestID: entry.requestID, method: entry.method,
          path: entry.path, status: entry.status,
          milliseconds: (entry.milliseconds * 10).rounded() / 10, failure: failure))
    }
  }

  /// A store's words may hold line breaks (an SQL statement) and a client's text (a
  /// database's message quotes values): every control character as a space, so that each
  /// line of the log is one request, none can be forged, and none moves a terminal's cursor.
  private static func oneLine(_ text: String) -> String {
    String(
      text.map { character in
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
          ? " " : character
      })
  }

  /// A line of the server's own, such as "Serving on …", in JSON lines' form (as text it is
  /// the front end's to write, beside its other messages).
  public func jsonNote(_ message: String) {
    writeJSON(NoteLine(time: now().formatted(.iso8601), message: message))
  }

  private struct RequestLine: Encodable {
    let time: String
    let level: String
    let requestID: String
    let method: String
    let path: String
    let status: Int
    let milliseconds: Double
    let failure: String?
  }

  private struct NoteLine: Encodable {
    let time: String
    let level = "info"
    let message: String
  }

  private func writeJSON(_ line: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(line) else { return }
    write(String(decoding: data, as: UTF8.self) + "\n")
  }
}
