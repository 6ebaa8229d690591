/// JSON strings written by hand, as `JSONEncoder` writes them, for texts too large to go
/// through it quickly: everybody's messages for `--json`, and a message of megabytes being
/// sent. Foundation's encoder looks at every character; this copies runs of ordinary bytes
/// and looks only at the few that need an escape (`ByteSearch`).
package enum JSONStringWriter {
  /// Appends `string` quoted and escaped as `JSONEncoder` escapes: quote and backslash, the
  /// short forms of backspace, tab, newline, form feed and carriage return, `\u00XX` for the
  /// other control characters, and nothing else (not `/`, not DEL, not non-ASCII).
  package static func append(_ string: String, to bytes: inout [UInt8]) {
    // A native string lends its bytes in place; `withUTF8` needs a mutable copy of the
    // string, a retain and a release for every string written.
    let lent: Void? = string.utf8.withContiguousStorageIfAvailable {
      append(utf8: $0, to: &bytes)
    }
    guard lent == nil else { return }
    var string = string
    string.withUTF8 { append(utf8: $0, to: &bytes) }
  }

  /// The same for text already in UTF-8 (JSON written a moment ago, quoted into an
  /// envelope): no `String` is made of it, which would check and copy every byte again.
  package static func append(utf8 source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    appendEscaped(source, nested: false, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends what `append` writes for `string`, escaped once more: that JSON as it reads
  /// inside another JSON string. The messages envelope's `body` is JSON in a string; written
  /// this way it takes one pass over each text, instead of writing the body and then
  /// escaping all of it again.
  package static func appendNested(_ string: String, to bytes: inout [UInt8]) {
    var string = string
    bytes.append(contentsOf: #"\""#.utf8)
    string.withUTF8 { appendEscaped($0, nested: true, to: &bytes) }
    bytes.append(contentsOf: #"\""#.utf8)
  }

  private static func appendEscaped(
    _ source: UnsafeBufferPointer<UInt8>, nested: Bool, to bytes: inout [UInt8]
  ) {
    var runStart = 0
    var seen: UInt64 = 0
    while true {
      let special = ByteSearch.firstByte(
        in: source, from: runStart, below: 0x20, or: UInt8(ascii: "\""),
        or: UInt8(ascii: "\\"), seen: &seen)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<special]))
      guard special < source.count else { break }
      appendEscape(source[special], nested: nested, to: &bytes)
      runStart = special + 1
    }
  }

  /// One escape: `\n`, `\"`, `\u001b`. Nested, its backslash is escaped (`\\n`), and so is
  /// the quote or backslash it escapes (`\\\"`).
  private static func appendEscape(_ byte: UInt8, nested: Bool, to bytes: inout [UInt8]) {
    let short: UInt8? =
      switch byte {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case 0x08: UInt8(ascii: "b")
      case 0x09: UInt8(ascii: "t")
      case 0x0A: UInt8(ascii: "n")
      case 0x0C: UInt8(ascii: "f")
      case 0x0D: UInt8(ascii: "r")
      default: nil
      }
    // Byte by byte: appending a literal's `utf8` view goes through the generic
    // `append(contentsOf:)`, which `perf` showed costing more than the escape itself.
    if nested { bytes.append(UInt8(ascii: "\\")) }
    bytes.append(UInt8(ascii: "\\"))
    if let short {
      if nested && (short == UInt8(ascii: "\"") || short == UInt8(ascii: "\\")) {
        bytes.append(UInt8(ascii: "\\"))
      }
      bytes.append(short)
    } else {
      bytes.append(UInt8(ascii: "u"))
      bytes.append(UInt8(ascii: "0"))
      bytes.append(UInt8(ascii: "0"))
      bytes.append(hexDigit(byte >> 4))
      bytes.append(hexDigit(byte & 0xF))
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }
}
