import Foundation

/// One value of a `JSONTape` read as a Swift value: what every container of `TapeDecoder`
/// does for `String`, `Bool` and the numbers.
///
/// Numbers are read only where the answer is certainly Foundation's: whole numbers that
/// fit the type, and finite doubles (both round correctly). A `Float` or a fraction asked
/// for as an integer is refused, and Foundation's `JSONDecoder` decides instead.
package struct TapeValue {
  package let tape: JSONTape
  package let index: Int

  package init(tape: JSONTape, index: Int) {
    self.tape = tape
    self.index = index
  }

  private var entry: JSONTape.Entry { tape.entries[index] }

  package var kind: JSONTape.Kind { entry.kind }
  package var isNull: Bool { entry.kind == .null }

  package func string() throws -> String {
    switch entry.kind {
    case .asciiString:
      return withText { String(decoding: $0, as: UTF8.self) }
    case .plainString:
      return try withText { try Self.validString($0) }
    case .escapedString:
      // Unescaped text is never longer than its escaped form.
      return try withText { escaped in
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: escaped.count) { buffer in
          let count = JSONEscapes.unescapeChecked(escaped, into: buffer)
          return try Self.validString(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
      }
    default:
      throw mismatch(String.self)
    }
  }

  /// The text of UTF-8 bytes, or an error where they are not valid UTF-8 (as Foundation
  /// refuses them). `String(decoding:)` repairs what is invalid, so valid means nothing was
  /// repaired: the same bytes came out. (`String(validating:)` is a generic, slower path.)
  private static func validString(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    let unchanged = text.withUTF8 { repaired in
      repaired.count == bytes.count
        && (bytes.isEmpty || memcmp(repaired.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
    guard unchanged else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: "a string is not valid UTF-8"))
    }
    return text
  }

  package func bool() throws -> Bool {
    switch entry.kind {
    case .trueValue: return true
    case .falseValue: return false
    default: throw mismatch(Bool.self)
    }
  }

  package func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard entry.kind == .number else { throw mismatch(T.self) }
    let whole = withText { text in text.allSatisfy { $0 != UInt8(ascii: ".") && $0 | 0x20 != 0x65 }
    }
    guard whole, let value = withText({ T(String(decoding: $0, as: UTF8.self)) }) else {
      throw TapeDecoder.Refusal.numberLeftToFoundation
    }
    return value
  }

  package func double() throws -> Double {
    guard entry.kind == .number else { throw mismatch(Double.self) }
    guard let value = withText({ Double(String(decoding: $0, as: UTF8.self)) }), value.isFinite
    else { throw TapeDecoder.Refusal.numberLeftToFoundation }
    return value
  }

  package func float() throws -> Float {
    guard entry.kind == .number else { throw mismatch(Float.self) }
    throw TapeDecoder.Refusal.numberLeftToFoundation
  }

  /// What a container's value decodes to when it is neither a primitive nor a container.
  package func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == String.self { return try string() as! T }
    if let direct = T.self as? any TapeDecodable.Type {
      return try direct.init(tapeValue: self) as! T
    }
    return try T(from: TapeDecoder(tape: tape, index: index))
  }

  // MARK: - Errors, as Foundation names them

  package func mismatch(_ type: Any.Type) -> DecodingError {
    let context = DecodingError.Context(
      codingPath: tape.codingPath(to: index), debugDescription: "found \(entry.kind) instead")
    return isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
  }

  private func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let entry = self.entry
    return try tape.bytes.withUnsafeBufferPointer { bytes in
      try body(UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]))
    }
  }
}
