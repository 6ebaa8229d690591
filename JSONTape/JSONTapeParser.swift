/// Builds a `JSONTape` in one pass over the bytes. Every function returns false (or nil) at
/// the first thing RFC 8259 does not allow; nothing is repaired.
struct JSONTapeParser {
  typealias Entry = JSONTape.Entry

  /// Deep enough for any real document, and below Foundation's own limit, so that what
  /// Foundation refuses for depth is refused here too.
  static let maximumDepth = 500

  // Internal, not private: the top-level member scan (`JSONTopLevelMembers.swift`) reads
  // with the same grammar.
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  var entries: [Entry] = []

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func document() -> [Entry]? {
    // About one value per 24 bytes in the messages bodies: one allocation for most.
    entries.reserveCapacity(bytes.count / 24 + 16)
    skipWhitespace()
    guard value(depth: 0) else { return nil }
    skipWhitespace()
    guard position == bytes.count else { return nil }
    return entries
  }

  // MARK: - Values

  mutating func value(depth: Int) -> Bool {
    guard position < bytes.count else { return false }
    switch bytes[position] {
    case UInt8(ascii: "\""): return string()
    case UInt8(ascii: "{"): return container(closedBy: UInt8(ascii: "}"), keyed: true, depth: depth)
    case UInt8(ascii: "["):
      return container(closedBy: UInt8(ascii: "]"), keyed: false, depth: depth)
    case UInt8(ascii: "t"): return literal("true", .trueValue)
    case UInt8(ascii: "f"): return literal("false", .falseValue)
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func container(closedBy close: UInt8, keyed: Bool, depth: Int) -> Bool {
    guard depth < Self.maximumDepth else { return false }
    let index = entries.count
    entries.append(Entry(start: 0, end: 0, kind: keyed ? .object : .array))
    position += 1
    skipWhitespace()
    var members: UInt32 = 0
    if position < bytes.count, bytes[position] == close {
      position += 1
    } else {
      while true {
        if keyed {
          guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), string() else {
            return false
          }
          skipWhitespace()
          guard expect(UInt8(ascii: ":")) else { return false }
          skipWhitespace()
        }
        guard value(depth: depth + 1) else { return false }
        members += 1
        skipWhitespace()
        guard position < bytes.count else { return false }
        if bytes[position] == UInt8(ascii: ",") {
          position += 1
          skipWhitespace()
          continue
        }
        guard expect(close) else { return false }
        break
      }
    }
    entries[index].start = members
    entries[index].end = UInt32(entries.count)
    return true
  }

  // MARK: - Strings

  /// A string at its opening quote. Its escapes are checked here (surrogates must pair),
  /// its UTF-8 when it is read, as Foundation does.
  private mutating func string() -> Bool {
    position += 1
    let start = position
    var seen: UInt64 = 0
    var escaped = false
    while true {
      position = ByteSearch.firstByte(
        in: bytes, from: position, below: 0x20, or: UInt8(ascii: "\""),
        or: UInt8(ascii: "\\"), seen: &seen)
      guard position < bytes.count else { return false }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let isASCII = seen & 0x8080_8080_8080_8080 == 0
        let kind: JSONTape.Kind =
          escaped ? .escapedString : isASCII ? .asciiString : .plainString
        entries.append(Entry(start: UInt32(start), end: UInt32(position), kind: kind))
        position += 1
        return true
      }
      if byte == UInt8(ascii: "\\") {
        escaped = true
        guard escape() else { return false }
        continue
      }
      // JSON forbids raw control characters inside strings.
      return false
    }
  }

  /// An escape at its backslash.
  private mutating func escape() -> Bool {
    guard position + 1 < bytes.count else { return false }
    let kind = bytes[position + 1]
    position += 2
    if JSONEscapes.shortEscape(kind) != nil { return true }
    switch kind {
    case UInt8(ascii: "u"):
      guard let unit = hexQuad() else { return false }
      if (0xDC00...0xDFFF).contains(unit) { return false }
      guard (0xD800...0xDBFF).contains(unit) else { return true }
      // A high surrogate must be followed by an escaped low one.
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
        bytes[position + 1] == UInt8(ascii: "u")
      else { return false }
      position += 2
      guard let low = hexQuad() else { return false }
      return (0xDC00...0xDFFF).contains(low)
    default:
      return false
    }
  }

  private mutating func hexQuad() -> UInt32? {
    guard position + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = JSONEscapes.hexDigit(bytes[position]) else { return nil }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  // MARK: - Numbers and literals

  /// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  private mutating func number() -> Bool {
    let start = position
    if peek() == UInt8(ascii: "-") { position += 1 }
    guard let first = peek(), isDigit(first) else { return false }
    if first == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
    if peek() == UInt8(ascii: ".") {
      position += 1
      guard let digit = peek(), isDigit(digit) else { return false }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      position += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
      guard let digit = peek(), isDigit(digit) else { return false }
      skipDigits()
    }
    entries.append(Entry(start: UInt32(start), end: UInt32(position), kind: .number))
    return true
  }

  private mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind) -> Bool {
    let length = word.utf8CodeUnitCount
    guard position + length <= bytes.count else { return false }
    for offset in 0..<length where bytes[position + offset] != word.utf8Start[offset] {
      return false
    }
    position += length
    entries.append(Entry(start: 0, end: 0, kind: kind))
    return true
  }

  // MARK: - Basics

  func peek() -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  private mutating func skipDigits() {
    while position < bytes.count, isDigit(bytes[position]) { position += 1 }
  }

  mutating func expect(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }
}
