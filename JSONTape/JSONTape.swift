/// A JSON document parsed once into a flat list of its values in document order (a
/// "tape", as in simdjson and ZippyJSON): `TapeDecoder` reads it without parsing again.
///
/// The tape is strict: it takes only what RFC 8259 allows, 500 levels deep at most.
/// Whatever it refuses, Foundation's `JSONDecoder` decides instead (`TapeFirstDecoding`), so
/// an input is never accepted here that Foundation would refuse. Strings are kept as byte
/// ranges and become `String`s only when decoded; keys and values that are never read cost
/// no allocation.
package final class JSONTape: Sendable {
  package enum Kind: UInt8 {
    case object
    case array
    /// A string of ASCII characters without escapes: its bytes are its text.
    case asciiString
    /// A string without escapes, with non-ASCII UTF-8 (not yet validated).
    case plainString
    /// A string with escapes: unescaped when read.
    case escapedString
    case number
    case trueValue
    case falseValue
    case null
  }

  /// One value. Strings and numbers: `start..<end` is their text in `bytes` (a string's
  /// without its quotes). Objects and arrays: `start` is the number of members (key and
  /// value pairs in an object), `end` the index of the entry after their last member.
  package struct Entry {
    var start: UInt32
    var end: UInt32
    var kind: Kind
  }

  /// The document's bytes, which the string entries point into.
  package let bytes: [UInt8]
  package let entries: [Entry]

  private init(bytes: [UInt8], entries: [Entry]) {
    self.bytes = bytes
    self.entries = entries
  }

  /// The tape of `bytes`, or nil when they are not strictly JSON (or too large to index
  /// with 32 bits).
  package static func parse(_ bytes: [UInt8]) -> JSONTape? {
    guard bytes.count < Int(UInt32.max) else { return nil }
    let entries: [Entry]? = bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONTapeParser(bytes: buffer)
      return parser.document()
    }
    return entries.map { JSONTape(bytes: bytes, entries: $0) }
  }

  /// The entry after `index`'s value and everything inside it.
  package func next(after index: Int) -> Int {
    let entry = entries[index]
    return entry.kind == .object || entry.kind == .array ? Int(entry.end) : index + 1
  }
}

extension JSONTape {
  /// The keys and positions from the top of the document down to the value at `index`.
  /// Worked out from the tape when asked (an error, mostly), so that decoding never keeps a
  /// path of its own.
  package func codingPath(to index: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var container = 0
    while container != index, let step = step(from: container, toward: index) {
      path.append(step.key)
      container = step.value
    }
    return path
  }

  /// The member of the container at `container` that holds `index`: its key and its value.
  private func step(from container: Int, toward index: Int) -> (key: any CodingKey, value: Int)? {
    let kind = entries[container].kind
    guard kind == .object || kind == .array else { return nil }
    var member = container + 1
    var position = 0
    while member < Int(entries[container].end) {
      let value = kind == .object ? member + 1 : member
      let end = next(after: value)
      if index >= member && index < end {
        if kind == .array { return (TapeKey(intValue: position), value) }
        let name = (try? TapeValue(tape: self, index: member).string()) ?? ""
        return (TapeKey(stringValue: name), value)
      }
      member = end
      position += 1
    }
    return nil
  }
}

/// A key of a coding path: an object's key or an array's position.
package struct TapeKey: CodingKey {
  package let stringValue: String
  package let intValue: Int?

  package init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  package init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }
}
