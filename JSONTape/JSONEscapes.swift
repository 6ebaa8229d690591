#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// JSON string escapes: what they stand for, and text unescaped.
package enum JSONEscapes {
  package static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The byte a one-letter escape stands for (`\n` a newline, `\"` a quote), or nil when
  /// the letter makes no such escape (`u` among them: it takes four hex digits).
  package static func shortEscape(_ letter: UInt8) -> UInt8? {
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
  package static func scalar(high: UInt32, low: UInt32) -> UInt32 {
    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
  }

  /// The text of a string whose escapes `JSONTapeParser` has already checked, unescaped
  /// into UTF-8 in `output` (as long as `text` at least); returns the length written.
  package static func unescapeChecked(
    _ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    var written = 0
    var position = 0
    func put(_ byte: UInt8) {
      output[written] = byte
      written += 1
    }
    while position < text.count {
      // Text runs up to the next backslash, copied whole: a long message has a newline or
      // a quote every few dozen bytes, and everything between them is copied as it is.
      let backslash = nextBackslash(in: text, from: position)
      if backslash > position {
        UnsafeMutableRawPointer(output.baseAddress! + written).copyMemory(
          from: text.baseAddress! + position, byteCount: backslash - position)
        written += backslash - position
        position = backslash
        if position == text.count { break }
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

  /// The index of the first backslash at or after `start`, or `text.count`.
  private static func nextBackslash(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard
      let found = memchr(text.baseAddress! + start, Int32(UInt8(ascii: "\\")), text.count - start)
    else { return text.count }
    return text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  private static func quad(_ text: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt32 {
    (0..<4).reduce(0) { value, offset in value << 4 | UInt32(hexDigit(text[position + offset])!) }
  }
}
