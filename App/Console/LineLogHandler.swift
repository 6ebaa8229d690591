import Foundation
import Logging
import Presentation

/// A swift-log handler that writes one line per message to the command's stderr, in
/// StreamLogHandler's format, in the local time zone: `2026-11-23T11:00:00+01:00 debug app:
/// [key=value] message`.
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
    let time = TimeText.iso8601(Date())
    write("\(time) \(event.level) \(label): \(fields)\(event.message)\n")
  }
}
