import Foundation

/// The single JSON document a `--json` command prints on stdout.
enum JSONOutput {
  static func write(_ value: some Encodable, to console: Console) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    console.output(String(decoding: data, as: UTF8.self))
  }

  /// One compact JSON object on its own line, for streams (JSON Lines).
  static func writeLine(_ value: some Encodable, to console: Console) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    console.output(String(decoding: data, as: UTF8.self))
  }
}
