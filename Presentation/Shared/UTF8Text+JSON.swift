/// JSON written by hand for documents too large for `JSONEncoder` (everybody's messages),
/// in exactly its format with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`:
/// two spaces per level, `"key" : value`, an empty list as `[`, a blank line and `]`.
extension UTF8Text {
  /// A JSON string, escaped as `JSONEncoder` escapes: quote and backslash, the short forms
  /// of backspace, tab, newline, form feed and carriage return, `\u00XX` for the other
  /// control characters, and nothing else (not `/`, not DEL, not non-ASCII).
  public mutating func appendJSONString(_ string: String) {
    var string = string
    bytes.append(UInt8(ascii: "\""))
    string.withUTF8 { source in
      var runStart = 0
      for position in 0..<source.count {
        let byte = source[position]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<position]))
        appendJSONEscape(byte)
        runStart = position + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<source.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Two spaces per level.
  public mutating func appendIndent(_ level: Int) {
    for _ in 0..<2 * level { bytes.append(UInt8(ascii: " ")) }
  }

  private mutating func appendJSONEscape(_ byte: UInt8) {
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
    bytes.append(UInt8(ascii: "\\"))
    if let short {
      bytes.append(short)
    } else {
      bytes.append(contentsOf: "u00".utf8)
      bytes.append(Self.hexDigit(UInt32(byte >> 4)))
      bytes.append(Self.hexDigit(UInt32(byte & 0xF)))
    }
  }
}
