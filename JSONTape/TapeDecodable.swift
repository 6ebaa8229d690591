/// A type `TapeDecoder` builds straight from the tape, without going through `Decoder`.
///
/// `init(from:)` costs, per value, a boxed `KeyedDecodingContainer` or an existential
/// unkeyed container and witness calls on unspecialized generic code. The messages body
/// holds half a million messages, so that machinery was most of its decoding time. A type
/// that conforms decodes itself from the tape's own containers, with calls the compiler
/// can see through; it must give exactly what its `init(from:)` gives (the tape tests
/// compare it with `JSONDecoder` on every body they decode, hostile ones included).
package protocol TapeDecodable: Decodable {
  init(tapeValue value: TapeValue) throws
}

extension TapeValue {
  /// This value as an object read by `Key`, as `Decoder.container(keyedBy:)` reads it.
  package func object<Key: CodingKey>(keyedBy type: Key.Type) throws -> TapeKeyedContainer<Key> {
    guard kind == .object else { throw mismatch([String: Any].self) }
    return try TapeKeyedContainer<Key>(tape: tape, object: index)
  }
}

/// A list of values the tape builds directly: the list is sized once, and each element
/// built without a container around it.
extension Array: TapeDecodable where Element: TapeDecodable {
  package init(tapeValue value: TapeValue) throws {
    guard value.kind == .array else { throw value.mismatch([Any].self) }
    let tape = value.tape
    let count = Int(tape.entries[value.index].start)
    self.init()
    reserveCapacity(count)
    var element = value.index + 1
    for _ in 0..<count {
      append(try Element(tapeValue: TapeValue(tape: tape, index: element)))
      element = tape.next(after: element)
    }
  }
}
