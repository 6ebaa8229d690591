import Foundation
import Logging

/// A swift-log handler that writes one line per message to the command's stderr, in
/// StreamLogHandler's format: `2026-11-23T10:00:00+0000 debug app: [key=value] message`.
struct LineLogHandler: LogHandler {
  let label: String
  let write: @Sendable (String) -> Void
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
    let pairs = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    let fields = pairs.isEmpty ? "" : "[\(pairs.joined(separator: " "))] "
    let time = Date().formatted(.iso8601)
    write("\(time) \(event.level) \(label): \(fields)\(event.message)\n")
  }
}
