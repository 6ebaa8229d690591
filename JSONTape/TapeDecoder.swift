/// A `Decoder` over a `JSONTape`: what `BackendResponse` decodes the messages bodies with,
/// through the same `init(from:)` as Foundation's `JSONDecoder`.
///
/// It is the fast path, not the judge. It gives the value Foundation would, or throws; on
/// any throw `BodyDecoder` asks `JSONDecoder`, whose answer (its value, or its error with
/// its coding path) is then the one reported. So the errors below need only be honest,
/// and a `Decodable` type that catches errors itself must not rely on their details.
struct TapeDecoder: Decoder {
  /// What this decoder leaves to Foundation rather than risk a different answer.
  enum Refusal: Error {
    case numberLeftToFoundation
    case superDecoderLeftToFoundation
  }

  let tape: JSONTape
  let index: Int

  var codingPath: [any CodingKey] { tape.codingPath(to: index) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(try TapeValue(tape: tape, index: index).object(keyedBy: type))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard tape.entries[index].kind == .array else {
      throw TapeValue(tape: tape, index: index).mismatch([Any].self)
    }
    return TapeUnkeyedContainer(tape: tape, array: index)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    TapeSingleValueContainer(value: TapeValue(tape: tape, index: index))
  }
}

/// A value decoded on its own (`String(from:)` and the like).
struct TapeSingleValueContainer: SingleValueDecodingContainer {
  let value: TapeValue

  var codingPath: [any CodingKey] { value.tape.codingPath(to: value.index) }

  func decodeNil() -> Bool { value.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try value.bool() }
  func decode(_ type: String.Type) throws -> String { try value.string() }
  func decode(_ type: Double.Type) throws -> Double { try value.double() }
  func decode(_ type: Float.Type) throws -> Float { try value.float() }
  func decode(_ type: Int.Type) throws -> Int { try value.integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try value.integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try value.integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try value.integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try value.integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try value.integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try value.integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try value.integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try value.integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try value.integer(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try value.decode(type) }
}
