/// An array of a `JSONTape`, read front to back.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
  let tape: JSONTape
  let array: Int
  let count: Int?
  private(set) var currentIndex = 0
  /// The tape index of the element at `currentIndex`.
  private var element: Int

  init(tape: JSONTape, array: Int) {
    self.tape = tape
    self.array = array
    self.count = Int(tape.entries[array].start)
    self.element = array + 1
  }

  var codingPath: [any CodingKey] { tape.codingPath(to: array) }
  var isAtEnd: Bool { currentIndex >= count! }

  mutating func decodeNil() throws -> Bool {
    guard try current().isNull else { return false }
    advance()
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.bool() } }
  mutating func decode(_ type: String.Type) throws -> String { try next { try $0.string() } }
  mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.double() } }
  mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.float() } }
  mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.integer(type) } }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.integer(type) } }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.integer(type) } }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.integer(type) } }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.integer(type) } }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.integer(type) } }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.integer(type) } }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.integer(type) } }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.integer(type) } }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.integer(type) } }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next { try $0.decode(type) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next { try TapeDecoder(tape: $0.tape, index: $0.index).container(keyedBy: type) }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next { try TapeDecoder(tape: $0.tape, index: $0.index).unkeyedContainer() }
  }

  mutating func superDecoder() throws -> any Decoder {
    throw TapeDecoder.Refusal.superDecoderLeftToFoundation
  }

  /// Reads the current element and moves past it only when that worked, as Foundation's
  /// containers do.
  private mutating func next<T>(_ read: (TapeValue) throws -> T) throws -> T {
    let value = try read(try current())
    advance()
    return value
  }

  private func current() throws -> TapeValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self,
        DecodingError.Context(
          codingPath: codingPath + [TapeKey(intValue: currentIndex)],
          debugDescription: "Unkeyed container is at end."))
    }
    return TapeValue(tape: tape, index: element)
  }

  private mutating func advance() {
    element = tape.next(after: element)
    currentIndex += 1
  }
}
