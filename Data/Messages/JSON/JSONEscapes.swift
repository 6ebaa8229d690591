/// JSON string escapes, read byte by byte.
enum JSONEscapes {
  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The byte a one-letter escape stands for (`\n` a newline, `\"` a quote), or nil when
  /// the letter makes no such escape (`u` among them: it takes four hex digits).
  static func shortEscape(_ letter: UInt8) -> UInt8? {
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }

  /// The scalar a UTF-16 surrogate pair stands for.
  static func scalar(high: UInt32, low: UInt32) -> UInt32 {
    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
  }

  /// The text of a string whose escapes `JSONTapeParser` has already checked, unescaped
  /// into UTF-8 in `output` (as long as `text` at least); returns the length written.
  static func unescapeChecked(
    _ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    var written = 0
    var position = 0
    func put(_ byte: UInt8) {
      output[written] = byte
      written += 1
    }
    while position < text.count {
      let byte = text[position]
      guard byte == UInt8(ascii: "\\") else {
        put(byte)
        position += 1
        continue
      }
      let letter = text[position + 1]
      position += 2
      if let short = shortEscape(letter) {
        put(short)
        continue
      }
      // `\uXXXX`, maybe a surrogate pair: the parser let through only well-formed ones.
      var scalar = quad(text, at: position)
      position += 4
      if (0xD800...0xDBFF).contains(scalar) {
        scalar = Self.scalar(high: scalar, low: quad(text, at: position + 2))
        position += 6
      }
      for unit in UTF8.encode(Unicode.Scalar(scalar)!)! { put(unit) }
    }
    return written
  }

  private static func quad(_ text: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt32 {
    (0..<4).reduce(0) { value, offset in value << 4 | UInt32(hexDigit(text[position + offset])!) }
  }
}
