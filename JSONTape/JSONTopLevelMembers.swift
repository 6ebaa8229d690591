/// A member's value, as `JSONTape.topLevelMembers` reads it.
package enum JSONMemberValue: Equatable, Sendable {
  /// A string's text, unescaped, as UTF-8 (not yet validated as such).
  case string([UInt8])
  /// A number, as written.
  case number(String)
  case null
  /// `true`, `false`, an object or an array: checked, but not kept.
  case other
}

/// Why a document's top-level members could not be read.
package enum JSONScanError: Error, Equatable, Sendable {
  /// Not JSON at all, or deeper than `JSONTapeParser.maximumDepth`.
  case notJSON
  /// JSON, but not an object.
  case notAnObject
}

extension JSONTape {
  /// The members of the document's top-level object whose keys are in `keys`, read in one
  /// pass with the tape's grammar; every other member is checked and passed over without
  /// being kept. Of a key given twice, the last value counts.
  ///
  /// For a document that is mostly one string (the messages envelope, whose `body` is tens
  /// of megabytes of JSON in a string), this is the whole cost of reading it: the string is
  /// found with `ByteSearch`, then unescaped once into a buffer of its own size. No tape is
  /// kept.
  package static func topLevelMembers(
    of bytes: UnsafeBufferPointer<UInt8>, keeping keys: Set<String>
  ) throws(JSONScanError) -> [String: JSONMemberValue] {
    var parser = JSONTapeParser(bytes: bytes)
    guard let members = parser.topLevelMembers(keeping: keys) else {
      // Only on this error path is the whole input parsed, to tell the two apart.
      var whole = JSONTapeParser(bytes: bytes)
      throw whole.document() == nil ? .notJSON : .notAnObject
    }
    return members
  }
}

extension JSONTapeParser {
  /// Nil when the document is not an object, or not JSON.
  fileprivate mutating func topLevelMembers(keeping keys: Set<String>) -> [String:
    JSONMemberValue]?
  {
    var members: [String: JSONMemberValue] = [:]
    skipWhitespace()
    guard expect(UInt8(ascii: "{")) else { return nil }
    skipWhitespace()
    var after = peek() == UInt8(ascii: "}") ? MemberEnd.closed : .another
    if after == .closed { position += 1 }
    while after == .another {
      guard peek() == UInt8(ascii: "\""), let key = stringText() else { return nil }
      skipWhitespace()
      guard expect(UInt8(ascii: ":")) else { return nil }
      skipWhitespace()
      let name = String(decoding: key, as: UTF8.self)
      if keys.contains(name) {
        guard let kept = keptValue() else { return nil }
        members[name] = kept
      } else {
        guard value(depth: 1) else { return nil }
        entries.removeAll(keepingCapacity: true)
      }
      after = memberEnd()
    }
    guard after == .closed else { return nil }
    skipWhitespace()
    return position == bytes.count ? members : nil
  }

  private enum MemberEnd {
    case another
    case closed
    case broken
  }

  /// What follows a member: a comma and another member, the object's end, or neither.
  private mutating func memberEnd() -> MemberEnd {
    skipWhitespace()
    if peek() == UInt8(ascii: ",") {
      position += 1
      skipWhitespace()
      return .another
    }
    return expect(UInt8(ascii: "}")) ? .closed : .broken
  }

  /// The value of a member that is kept, at its first byte.
  private mutating func keptValue() -> JSONMemberValue? {
    let start = position
    guard peek() == UInt8(ascii: "\"") else {
      guard value(depth: 1) else { return nil }
      let kind = entries.first?.kind
      entries.removeAll(keepingCapacity: true)
      switch kind {
      case .number: return .number(String(decoding: bytes[start..<position], as: UTF8.self))
      case .null: return .null
      default: return .other
      }
    }
    return stringText().map(JSONMemberValue.string)
  }

  /// The string at the opening quote, checked with the tape's grammar, then unescaped.
  private mutating func stringText() -> [UInt8]? {
    guard value(depth: 1), let entry = entries.first else { return nil }
    entries.removeAll(keepingCapacity: true)
    let text = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
    guard entry.kind == .escapedString else { return Array(text) }
    // Unescaped text is never longer than its escaped form.
    return [UInt8](unsafeUninitializedCapacity: text.count) { output, count in
      count = JSONEscapes.unescapeChecked(text, into: output)
    }
  }
}
