import Foundation

/// An object of a `JSONTape`, read by key.
///
/// Keys follow Foundation's rules: a key repeated in the object means its first value,
/// keys are compared as `String`s (so "é" written either way is one key), and every key of
/// the object must be valid UTF-8 even if nobody asks for it.
package struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  /// Objects with more members than this get an index: the messages body's thousands of
  /// names. A message's two or three keys are faster to compare in place.
  private static var indexedFrom: Int { 16 }

  package let tape: JSONTape
  package let object: Int
  private let index: TapeObjectIndex?

  package init(tape: JSONTape, object: Int) throws {
    self.tape = tape
    self.object = object
    if Int(tape.entries[object].start) > Self.indexedFrom {
      index = try TapeObjectIndex(tape: tape, object: object)
    } else {
      index = nil
      var member = object + 1
      let end = Int(tape.entries[object].end)
      while member < end {
        if tape.entries[member].kind != .asciiString {
          _ = try TapeValue(tape: tape, index: member).string()
        }
        member = tape.next(after: member + 1)
      }
    }
  }

  package var codingPath: [any CodingKey] { tape.codingPath(to: object) }

  package var allKeys: [Key] {
    let names = index?.names ?? TapeObjectIndex.distinctNames(tape, Self.keyIndices(tape, object))
    return names.compactMap(Key.init(stringValue:))
  }

  package func contains(_ key: Key) -> Bool { valueIndex(for: key) != nil }

  package func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }
  package func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try value(for: key).bool()
  }
  package func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try value(for: key).string()
  }
  package func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try value(for: key).double()
  }
  package func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try value(for: key).float()
  }
  package func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
  package func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
  package func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
  package func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
  package func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
  package func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
  package func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
  package func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
  package func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
  package func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
  package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try value(for: key).decode(type)
  }

  package func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try TapeDecoder(tape: tape, index: value(for: key).index).container(keyedBy: type)
  }

  package func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try TapeDecoder(tape: tape, index: value(for: key).index).unkeyedContainer()
  }

  package func superDecoder() throws -> any Decoder {
    throw TapeDecoder.Refusal.superDecoderLeftToFoundation
  }

  package func superDecoder(forKey key: Key) throws -> any Decoder {
    throw TapeDecoder.Refusal.superDecoderLeftToFoundation
  }

  // MARK: - Finding a key

  private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
    try value(for: key).integer(T.self)
  }

  private func value(for key: Key) throws -> TapeValue {
    guard let index = valueIndex(for: key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "No value for \"\(key.stringValue)\"."))
    }
    return TapeValue(tape: tape, index: index)
  }

  /// The tape index of the first value whose key equals `key`.
  private func valueIndex(for key: Key) -> Int? {
    let wanted = key.stringValue
    if let index { return index.values[wanted] }
    var member = object + 1
    let end = Int(tape.entries[object].end)
    while member < end {
      if keyEquals(member: member, wanted) { return member + 1 }
      member = tape.next(after: member + 1)
    }
    return nil
  }

  /// Compares bytes when both keys are ASCII, where equal text means equal bytes; otherwise
  /// as `String`s, which Unicode's canonical equivalence makes a different question.
  private func keyEquals(member: Int, _ wanted: String) -> Bool {
    let entry = tape.entries[member]
    if entry.kind == .asciiString {
      var wanted = wanted
      let asciiAnswer: Bool? = wanted.withUTF8 { wantedBytes in
        let sameBytes = tape.bytes.withUnsafeBufferPointer { bytes in
          Int(entry.end - entry.start) == wantedBytes.count
            && memcmp(
              bytes.baseAddress! + Int(entry.start), wantedBytes.baseAddress!, wantedBytes.count)
              == 0
        }
        if sameBytes { return true }
        return wantedBytes.allSatisfy { $0 < 0x80 } ? false : nil
      }
      if let asciiAnswer { return asciiAnswer }
    }
    return (try? TapeValue(tape: tape, index: member).string()) == wanted
  }

  /// The tape indices of an object's keys, in document order.
  package static func keyIndices(_ tape: JSONTape, _ object: Int) -> [Int] {
    var keys: [Int] = []
    keys.reserveCapacity(Int(tape.entries[object].start))
    var member = object + 1
    let end = Int(tape.entries[object].end)
    while member < end {
      keys.append(member)
      member = tape.next(after: member + 1)
    }
    return keys
  }
}

/// An object's distinct keys with their first values, for objects with many members.
package struct TapeObjectIndex {
  /// Distinct keys in document order.
  package let names: [String]
  /// The tape index of each of `names`' first value, in the same order: what a reader that
  /// goes through every key uses instead of hashing each name again.
  package let firstValues: [Int]
  package let values: [String: Int]

  package init(tape: JSONTape, object: Int) throws {
    var names: [String] = []
    var firstValues: [Int] = []
    var values: [String: Int] = [:]
    let members = Int(tape.entries[object].start)
    names.reserveCapacity(members)
    firstValues.reserveCapacity(members)
    values.reserveCapacity(members)
    for member in TapeKeyedContainer<TapeKey>.keyIndices(tape, object) {
      let name = try TapeValue(tape: tape, index: member).string()
      guard values[name] == nil else { continue }  // a repeated key: its first value counts
      values[name] = member + 1
      names.append(name)
      firstValues.append(member + 1)
    }
    self.names = names
    self.firstValues = firstValues
    self.values = values
  }

  package static func distinctNames(_ tape: JSONTape, _ keys: some Sequence<Int>) -> [String] {
    var names: [String] = []
    for member in keys {
      guard let name = try? TapeValue(tape: tape, index: member).string() else { continue }
      if !names.contains(name) { names.append(name) }
    }
    return names
  }
}
