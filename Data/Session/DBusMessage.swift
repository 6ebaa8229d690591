/// The few D-Bus messages the app sends itself, and the replies it reads, in the wire format
/// of the D-Bus specification ("Message Protocol"): little-endian method calls out, replies
/// in either byte order in. Only the types the Secret Service's questions use are written
/// (`s`, `o`, `a{ss}`); replies are read through `DBusReader`.
struct DBusMessage {
  /// What a call asks: its `DESTINATION`, `PATH`, `INTERFACE` and `MEMBER` header fields,
  /// and a body already marshalled with `signature`.
  struct Call {
    var destination: String
    var path: String
    var interface: String
    var member: String
    var signature = ""
    var body: [UInt8] = []
  }

  /// A method call, `serial` numbered, ready to send.
  static func bytes(of call: Call, serial: UInt32) -> [UInt8] {
    var header = DBusWriter()
    header.byte(UInt8(ascii: "l"))  // little-endian
    header.byte(1)  // METHOD_CALL
    header.byte(0)  // no flags: a reply is wanted, and a service may be started for it
    header.byte(1)  // protocol version
    header.uint32(UInt32(call.body.count))
    header.uint32(serial)
    header.array(elementAlignment: 8) { fields in
      fields.headerField(1, signature: "o") { $0.string(call.path) }
      fields.headerField(2, signature: "s") { $0.string(call.interface) }
      fields.headerField(3, signature: "s") { $0.string(call.member) }
      fields.headerField(6, signature: "s") { $0.string(call.destination) }
      if !call.signature.isEmpty {
        fields.headerField(8, signature: "g") { $0.signature(call.signature) }
      }
    }
    header.pad(to: 8)  // the body starts 8-aligned
    return header.bytes + call.body
  }

  /// A message read off the bus: what kind, which call it answers, and its body.
  struct Received {
    enum Kind: UInt8 {
      case methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    let kind: Kind?
    let replySerial: UInt32?
    let errorName: String?
    let signature: String
    /// The body, with the byte order it was sent in.
    let body: DBusReader

    /// The length of the message that starts `bytes`, once its fixed part has arrived (16
    /// bytes); nil before that.
    static func length(ofMessageStarting bytes: ArraySlice<UInt8>) throws -> Int? {
      guard bytes.count >= 16 else { return nil }
      var reader = try DBusReader(Array(bytes.prefix(16)))
      reader.offset = 4
      let bodyLength = Int(try reader.uint32())
      reader.offset = 12
      let fieldsLength = Int(try reader.uint32())
      let headerLength = (16 + fieldsLength + 7) / 8 * 8
      let length = headerLength + bodyLength
      guard length <= maximumLength else {
        throw DBusWireError.malformed("a message of \(length) bytes")
      }
      return length
    }

    /// Larger than anything the Secret Service answers the app's questions with, and far
    /// below the specification's 128 MiB: a length past it means the stream is not D-Bus.
    static let maximumLength = 1 << 24

    init(_ bytes: [UInt8]) throws {
      var reader = try DBusReader(bytes)
      reader.offset = 1
      kind = Kind(rawValue: try reader.byte())
      reader.offset = 12
      var replySerial: UInt32?
      var errorName: String?
      var signature = ""
      let fields = try reader.array(elementAlignment: 8) { field -> (UInt8, HeaderValue) in
        try field.align(8)
        let code = try field.byte()
        let type = try field.signature()
        switch type {
        case "s", "o": return (code, .text(try field.string()))
        case "g": return (code, .text(try field.signature()))
        case "u": return (code, .number(try field.uint32()))
        default: throw DBusWireError.malformed("a header field of type \(type)")
        }
      }
      for (code, value) in fields {
        switch (code, value) {
        case (4, .text(let name)): errorName = name
        case (5, .number(let serial)): replySerial = serial
        case (8, .text(let types)): signature = types
        default: break
        }
      }
      try reader.align(8)
      self.replySerial = replySerial
      self.errorName = errorName
      self.signature = signature
      body = reader
    }

    private enum HeaderValue {
      case text(String)
      case number(UInt32)
    }

    /// The text of an error reply: its name, and its message when it has one.
    var errorDescription: String {
      var body = self.body
      let name = errorName ?? "an error without a name"
      guard signature.hasPrefix("s"), let message = try? body.string() else { return name }
      return "\(name): \(message)"
    }
  }
}

/// A message that is not what the D-Bus specification or the question allows.
enum DBusWireError: Error, Equatable {
  case malformed(String)
}

/// Marshals values at their D-Bus alignment, counted from the start of `bytes`: a header
/// from the message's start, a body from its own start, which the header pads to 8.
struct DBusWriter {
  private(set) var bytes: [UInt8] = []

  mutating func pad(to alignment: Int) {
    while bytes.count % alignment != 0 { bytes.append(0) }
  }

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func uint32(_ value: UInt32) {
    pad(to: 4)
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func string(_ value: String) {
    let utf8 = Array(value.utf8)
    uint32(UInt32(utf8.count))
    bytes.append(contentsOf: utf8)
    bytes.append(0)
  }

  mutating func signature(_ value: String) {
    let utf8 = Array(value.utf8)
    bytes.append(UInt8(utf8.count))
    bytes.append(contentsOf: utf8)
    bytes.append(0)
  }

  /// An array: its length in bytes, the padding to its first element, then the elements.
  mutating func array(elementAlignment: Int, _ elements: (inout DBusWriter) -> Void) {
    uint32(0)
    let lengthAt = bytes.count - 4
    pad(to: elementAlignment)
    let start = bytes.count
    elements(&self)
    let length = UInt32(bytes.count - start).littleEndian
    withUnsafeBytes(of: length) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
  }

  /// `a{ss}`, in the order given.
  mutating func stringDictionary(_ pairs: [(String, String)]) {
    array(elementAlignment: 8) { entries in
      for (key, value) in pairs {
        entries.pad(to: 8)
        entries.string(key)
        entries.string(value)
      }
    }
  }

  fileprivate mutating func headerField(
    _ code: UInt8, signature type: String, _ value: (inout DBusWriter) -> Void
  ) {
    pad(to: 8)
    byte(code)
    signature(type)
    value(&self)
  }
}

/// Reads marshalled values in the byte order their message names, checking every length
/// against what arrived.
struct DBusReader: Sendable {
  private let bytes: [UInt8]
  private let bigEndian: Bool
  var offset = 0

  /// `bytes` is a whole message, whose first byte names its byte order.
  init(_ bytes: [UInt8]) throws {
    switch bytes.first {
    case UInt8(ascii: "l"): bigEndian = false
    case UInt8(ascii: "B"): bigEndian = true
    default: throw DBusWireError.malformed("an unknown byte order")
    }
    self.bytes = bytes
  }

  mutating func align(_ alignment: Int) throws {
    offset = (offset + alignment - 1) / alignment * alignment
    guard offset <= bytes.count else { throw DBusWireError.malformed("a message cut short") }
  }

  mutating func byte() throws -> UInt8 {
    guard offset < bytes.count else { throw DBusWireError.malformed("a message cut short") }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func uint32() throws -> UInt32 {
    try align(4)
    guard offset + 4 <= bytes.count else { throw DBusWireError.malformed("a message cut short") }
    var value: UInt32 = 0
    for index in 0..<4 {
      let byte = UInt32(bytes[offset + (bigEndian ? index : 3 - index)])
      value = value << 8 | byte
    }
    offset += 4
    return value
  }

  mutating func boolean() throws -> Bool {
    switch try uint32() {
    case 0: false
    case 1: true
    default: throw DBusWireError.malformed("a boolean that is neither 0 nor 1")
    }
  }

  /// `s` or `o`.
  mutating func string() throws -> String {
    let length = Int(try uint32())
    return try text(length)
  }

  mutating func signature() throws -> String {
    let length = Int(try byte())
    return try text(length)
  }

  private mutating func text(_ length: Int) throws -> String {
    guard offset + length < bytes.count, bytes[offset + length] == 0 else {
      throw DBusWireError.malformed("a string cut short")
    }
    defer { offset += length + 1 }
    return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
  }

  mutating func array<Element>(
    elementAlignment: Int, _ element: (inout DBusReader) throws -> Element
  ) throws -> [Element] {
    let length = Int(try uint32())
    try align(elementAlignment)
    let end = offset + length
    guard end <= bytes.count else { throw DBusWireError.malformed("an array cut short") }
    var elements: [Element] = []
    while offset < end { elements.append(try element(&self)) }
    guard offset == end else { throw DBusWireError.malformed("an array's elements overrun it") }
    return elements
  }

  /// `as` or `ao`.
  mutating func strings() throws -> [String] {
    try array(elementAlignment: 4) { try $0.string() }
  }

  /// `a{ss}`.
  mutating func stringDictionary() throws -> [String: String] {
    let pairs = try array(elementAlignment: 8) { entry in
      try entry.align(8)
      return (try entry.string(), try entry.string())
    }
    return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
  }

  /// A variant holding `a{ss}`; nil when it holds anything else.
  mutating func stringDictionaryVariant() throws -> [String: String]? {
    guard try signature() == "a{ss}" else { return nil }
    return try stringDictionary()
  }
}
