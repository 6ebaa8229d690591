/// JSON strings written by hand, as `JSONEncoder` writes them, for texts too large to go
/// through it quickly: everybody's messages for `--json`, and a message of megabytes being
/// sent. Foundation's encoder looks at every character; this copies runs of ordinary bytes
/// and looks only at the few that need an escape (`ByteSearch`).
public enum JSONStringWriter {
  /// Appends `string` quoted and escaped as `JSONEncoder` escapes: quote and backslash, the
  /// short forms of backspace, tab, newline, form feed and carriage return, `\u00XX` for the
  /// other control characters, and nothing else (not `/`, not DEL, not non-ASCII).
  public static func append(_ string: String, to bytes: inout [UInt8]) {
    var string = string
    bytes.append(UInt8(ascii: "\""))
    string.withUTF8 { source in
      var runStart = 0
      var seen: UInt64 = 0
      while true {
        let special = ByteSearch.firstByte(
          in: source, from: runStart, below: 0x20, or: UInt8(ascii: "\""),
          or: UInt8(ascii: "\\"), seen: &seen)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<special]))
        guard special < source.count else { break }
        appendEscape(source[special], to: &bytes)
        runStart = special + 1
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
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
      bytes.append(hexDigit(byte >> 4))
      bytes.append(hexDigit(byte & 0xF))
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }
}
