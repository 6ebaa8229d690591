import JSONTape

/// Text built as UTF-8 bytes in one growing buffer: what large screens (everybody's
/// messages, tens of megabytes) are written into, a block at a time, so that the cost is
/// one pass over the text and nothing is built per line or per character.
public struct UTF8Text: Sendable {
  public internal(set) var bytes: [UInt8] = []

  public init() {}

  public var count: Int { bytes.count }

  public mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  public mutating func append(_ text: [UInt8]) {
    bytes.append(contentsOf: text)
  }

  public mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// The text as a `String`; the bytes came from `String`s, so they are valid UTF-8.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// Text from other people, made safe for a terminal (see `TerminalText`): control
  /// characters other than tab become escapes such as `\u{1b}`; a newline becomes
  /// `newline` when one is given (a newline and the indentation of the next line), an
  /// escape otherwise. Runs of ordinary bytes are copied as they are.
  public mutating func appendVisible(_ text: String, newline: String? = nil) {
    var text = text
    text.withUTF8 { source in
      // A large text gets room for itself and an indentation per line of about 70 bytes
      // at once, rather than a doubling of the buffer after each few megabytes. (Only a
      // large one: `reserveCapacity` grows to exactly what is asked, so calling it for
      // every small text would copy the buffer each time.)
      if source.count > 1 << 16 {
        bytes.reserveCapacity(bytes.count + source.count + source.count / 16 + 64)
      }
      var runStart = 0
      var position = 0
      var seen: UInt64 = 0
      while true {
        // Only these lead bytes can start a control character in UTF-8: C0 (below 0x20),
        // DEL, and the C1 controls U+0080…U+009F, written 0xC2 0x80…0x9F.
        position = ByteSearch.firstByte(
          in: source, from: position, below: 0x20, or: 0x7F, or: 0xC2, seen: &seen)
        guard position < source.count else { break }
        let byte = source[position]
        let scalar: UInt32
        let length: Int
        if byte == 0xC2 {
          let next = source[position + 1]
          guard next < 0xA0 else {
            position += 2
            continue
          }
          scalar = 0x80 | UInt32(next & 0x3F)
          length = 2
        } else {
          scalar = UInt32(byte)
          length = 1
        }
        if scalar == 0x09 {
          position += 1
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<position]))
        if scalar == 0x0A, let newline {
          append(newline)
        } else {
          appendEscape(scalar)
        }
        position += length
        runStart = position
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<source.count]))
    }
  }

  /// `\u{1b}`: the escape a Swift programmer would write, in lowercase hexadecimal.
  private mutating func appendEscape(_ scalar: UInt32) {
    bytes.append(contentsOf: "\\u{".utf8)
    if scalar >= 0x10 { bytes.append(Self.hexDigit(scalar >> 4)) }
    bytes.append(Self.hexDigit(scalar & 0xF))
    bytes.append(UInt8(ascii: "}"))
  }

  static func hexDigit(_ value: UInt32) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + UInt8(value) : UInt8(ascii: "a") + UInt8(value - 10)
  }
}
