import Foundation
import JSONTape
import SystemSupport

/// Reads the messages envelope's top level in one pass over its bytes, unescaping the
/// `body` string straight into UTF-8 bytes.
///
/// The seed let JSONDecoder build a `String` of the whole body and then copied it into
/// `Data` for the second decode: two extra copies of a body that can be tens of megabytes.
/// Only the envelope is read here; the body itself is left to `JSONDecoder`.
struct EnvelopeScanner {
  struct Envelope {
    let statusCode: Int
    /// The body string's text, unescaped, as UTF-8.
    let body: [UInt8]
  }

  static func scan(_ data: Data) throws(EnvelopeError) -> Envelope {
    let result: Result<Envelope, EnvelopeError> = data.withUnsafeBytes { raw in
      var scanner = EnvelopeScanner(bytes: raw.bindMemory(to: UInt8.self))
      return Result { () throws(EnvelopeError) in try scanner.envelope() }
    }
    return try result.get()
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  // MARK: - The top level

  private enum BodyValue {
    case absent
    case null
    case notAString
    case string([UInt8])
  }

  private mutating func envelope() throws(EnvelopeError) -> Envelope {
    skipWhitespace()
    guard peek() == UInt8(ascii: "{") else { throw classifyNonObject() }
    position += 1
    var statusCode: Int?
    var body = BodyValue.absent
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      position += 1
    } else {
      while true {
        guard peek() == UInt8(ascii: "\"") else { throw .envelopeNotJSON }
        let key = try string()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
        if key.elementsEqual("statusCode".utf8) {
          statusCode = try integer()
        } else if key.elementsEqual("body".utf8) {
          body = try bodyValue()
        } else {
          try skipValue(depth: 0)
        }
        skipWhitespace()
        if peek() == UInt8(ascii: ",") {
          position += 1
          skipWhitespace()
          continue
        }
        try expect(UInt8(ascii: "}"))
        break
      }
    }
    skipWhitespace()
    guard position == bytes.count else { throw .envelopeNotJSON }
    guard let statusCode else { throw .statusCodeMissing }
    switch body {
    case .absent, .null: throw .bodyMissing
    case .notAString: throw .bodyNotAString
    case .string(let text): return Envelope(statusCode: statusCode, body: text)
    }
  }

  private mutating func bodyValue() throws(EnvelopeError) -> BodyValue {
    switch peek() {
    case UInt8(ascii: "\""): return .string(try bodyString())
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      try skipValue(depth: 0)
      return .notAString
    }
  }

  /// A JSON number that is a whole number fits; anything else (a string, 2.5) is no status.
  private mutating func integer() throws(EnvelopeError) -> Int? {
    let start = position
    guard let first = peek(), first == UInt8(ascii: "-") || isDigit(first) else {
      try skipValue(depth: 0)
      return nil
    }
    try skipNumber()
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if let whole = Int(text) { return whole }
    guard let value = Double(text), value == value.rounded(), abs(value) < 1e15 else { return nil }
    return Int(value)
  }

  /// Not an object: JSON of another kind, or not JSON at all. Only on this error path is
  /// the whole input parsed, to tell the two apart.
  private func classifyNonObject() -> EnvelopeError {
    let data = Data(buffer: bytes)
    let isJSON = (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
    return isJSON ? .envelopeNotAnObject : .envelopeNotJSON
  }

  // MARK: - Strings

  /// Reads a string at the opening quote and returns its unescaped UTF-8 bytes. Its end is
  /// found first, so that the text is written once into a buffer of the right size:
  /// unescaped text is never longer than its escaped form.
  private mutating func string() throws(EnvelopeError) -> [UInt8] {
    let start = position + 1
    try skipString()
    let end = position - 1
    position = start
    var failure: EnvelopeError?
    let text = [UInt8](unsafeUninitializedCapacity: end - start) { output, count in
      var written = 0
      while position < end {
        let byte = bytes[position]
        position += 1
        guard byte == UInt8(ascii: "\\") else {
          output[written] = byte
          written += 1
          continue
        }
        do throws(EnvelopeError) {
          try escape(into: output, at: &written)
        } catch {
          failure = error
          break
        }
      }
      count = written
    }
    if let failure { throw failure }
    position = end + 1
    return text
  }

  /// The body string: nearly the whole input, so it is unescaped in one pass into a buffer
  /// as large as what is left of the input (pages never written cost no memory), rather
  /// than measured first as `string()` does.
  private mutating func bodyString() throws(EnvelopeError) -> [UInt8] {
    position += 1
    var failure: EnvelopeError?
    var closed = false
    let text = [UInt8](unsafeUninitializedCapacity: bytes.count - position) { output, count in
      var written = 0
      var seen: UInt64 = 0
      while true {
        // Ordinary text is copied a run at a time, up to the next byte that needs a look.
        let special = ByteSearch.firstByte(
          in: bytes, from: position, below: 0x20, or: UInt8(ascii: "\""),
          or: UInt8(ascii: "\\"), seen: &seen)
        let run = special - position
        if run > 0 {
          (output.baseAddress! + written).update(from: bytes.baseAddress! + position, count: run)
          written += run
        }
        position = special
        guard position < bytes.count else { break }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: "\"") {
          closed = true
          break
        }
        if byte == UInt8(ascii: "\\") {
          do throws(EnvelopeError) {
            try escape(into: output, at: &written)
          } catch {
            failure = error
            break
          }
          continue
        }
        // JSON forbids raw control characters inside strings.
        failure = .envelopeNotJSON
        break
      }
      count = written
    }
    if let failure { throw failure }
    guard closed else { throw .envelopeNotJSON }
    return text
  }

  /// An escape after its backslash, written to `output` at `written`.
  private mutating func escape(
    into output: UnsafeMutableBufferPointer<UInt8>, at written: inout Int
  ) throws(EnvelopeError) {
    func put(_ byte: UInt8) {
      output[written] = byte
      written += 1
    }
    guard let byte = peek() else { throw .envelopeNotJSON }
    position += 1
    if let short = JSONEscapes.shortEscape(byte) {
      put(short)
      return
    }
    switch byte {
    case UInt8(ascii: "u"):
      var scalar = try hexQuad()
      if (0xD800...0xDBFF).contains(scalar) {
        // A high surrogate must be followed by an escaped low one.
        guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count,
          bytes[position + 1] == UInt8(ascii: "u")
        else { throw .envelopeNotJSON }
        position += 2
        let low = try hexQuad()
        guard (0xDC00...0xDFFF).contains(low) else { throw .envelopeNotJSON }
        scalar = JSONEscapes.scalar(high: scalar, low: low)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw .envelopeNotJSON
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw .envelopeNotJSON }
      for unit in UTF8.encode(unicode)! { put(unit) }
    default:
      throw .envelopeNotJSON
    }
  }

  private mutating func hexQuad() throws(EnvelopeError) -> UInt32 {
    guard position + 4 <= bytes.count else { throw .envelopeNotJSON }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = JSONEscapes.hexDigit(bytes[position]) else { throw .envelopeNotJSON }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  // MARK: - Skipping other values

  /// Checks and passes over any JSON value; nesting is bounded so hostile input cannot
  /// exhaust the stack.
  private mutating func skipValue(depth: Int) throws(EnvelopeError) {
    guard depth < 512 else { throw .envelopeNotJSON }
    switch peek() {
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "{"): try skipContainer(close: UInt8(ascii: "}"), keyed: true, depth: depth)
    case UInt8(ascii: "["): try skipContainer(close: UInt8(ascii: "]"), keyed: false, depth: depth)
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case let byte? where byte == UInt8(ascii: "-") || isDigit(byte): try skipNumber()
    default: throw .envelopeNotJSON
    }
  }

  private mutating func skipContainer(close: UInt8, keyed: Bool, depth: Int) throws(EnvelopeError) {
    position += 1
    skipWhitespace()
    if peek() == close {
      position += 1
      return
    }
    while true {
      if keyed {
        guard peek() == UInt8(ascii: "\"") else { throw .envelopeNotJSON }
        try skipString()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
      }
      try skipValue(depth: depth + 1)
      skipWhitespace()
      if peek() == UInt8(ascii: ",") {
        position += 1
        skipWhitespace()
        continue
      }
      try expect(close)
      return
    }
  }

  private mutating func skipString() throws(EnvelopeError) {
    position += 1
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "\""):
        position += 1
        return
      case UInt8(ascii: "\\"):
        position += 2
      case let byte where byte < 0x20:
        throw .envelopeNotJSON
      default:
        position += 1
      }
    }
    throw .envelopeNotJSON
  }

  /// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  private mutating func skipNumber() throws(EnvelopeError) {
    if peek() == UInt8(ascii: "-") { position += 1 }
    guard let first = peek(), isDigit(first) else { throw .envelopeNotJSON }
    if first == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
    if peek() == UInt8(ascii: ".") {
      position += 1
      guard let digit = peek(), isDigit(digit) else { throw .envelopeNotJSON }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      position += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
      guard let digit = peek(), isDigit(digit) else { throw .envelopeNotJSON }
      skipDigits()
    }
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { position += 1 }
  }

  private mutating func literal(_ word: StaticString) throws(EnvelopeError) {
    let length = word.utf8CodeUnitCount
    guard position + length <= bytes.count else { throw .envelopeNotJSON }
    for index in 0..<length where bytes[position + index] != word.utf8Start[index] {
      throw .envelopeNotJSON
    }
    position += length
  }

  // MARK: - Basics

  private func peek() -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func expect(_ byte: UInt8) throws(EnvelopeError) {
    guard peek() == byte else { throw .envelopeNotJSON }
    position += 1
  }

  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    {
      position += 1
    }
  }
}
