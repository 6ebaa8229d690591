internal import CSystemdBus

/// A method call to ask on the session bus: where it goes and what it carries.
struct SessionBusCall {
  var destination: String
  var path: String
  var interface: String
  var member: String
  /// Appends the call's arguments, in the order of its signature.
  var arguments: (SessionBusWriter) throws -> Void = { _ in }
}

/// Appends arguments to an sd-bus message, each with its D-Bus type: sd-bus builds the
/// signature and the wire format.
struct SessionBusWriter {
  let library: AppBusLibrary
  let message: OpaquePointer

  func string(_ value: String) throws {
    _ = try value.withCString {
      library.sd_bus_message_append_basic(message, Self.type("s"), $0)
    }.succeeded()
  }

  /// An `a{ss}`: a dictionary of strings, in the given order.
  func stringDictionary(_ pairs: [(String, String)]) throws {
    _ = try library.sd_bus_message_open_container(message, Self.type("a"), "{ss}").succeeded()
    for (key, value) in pairs {
      _ = try library.sd_bus_message_open_container(message, Self.type("e"), "ss").succeeded()
      try string(key)
      try string(value)
      _ = try library.sd_bus_message_close_container(message).succeeded()
    }
    _ = try library.sd_bus_message_close_container(message).succeeded()
  }

  static func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }
}

/// A method's reply, read in the order of its signature. sd-bus checks each read against the
/// signature the reply carries: a reply of another shape is `SessionBusError.malformed`.
final class SessionBusReply {
  private let library: AppBusLibrary
  let message: OpaquePointer

  /// Takes over a reference to `message`.
  init(library: AppBusLibrary, message: OpaquePointer) {
    self.library = library
    self.message = message
  }

  deinit { _ = library.sd_bus_message_unref(message) }

  var signature: String {
    library.sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? ""
  }

  /// A `b`.
  func boolean() throws -> Bool {
    var value: Int32 = 0
    try read(SessionBusWriter.type("b"), into: &value, what: "a boolean")
    return value != 0
  }

  /// A `u`.
  func unsignedInteger() throws -> UInt32 {
    var value: UInt32 = 0
    try read(SessionBusWriter.type("u"), into: &value, what: "an unsigned integer")
    return value
  }

  /// An array of strings (`as`) or of object paths (`ao`).
  func strings(of type: Unicode.Scalar) throws -> [String] {
    let code = SessionBusWriter.type(type)
    try enter(SessionBusWriter.type("a"), String(type), what: "an array")
    var strings: [String] = []
    while true {
      var pointer: UnsafePointer<CChar>?
      guard try read(code, into: &pointer, what: "a string") > 0, let pointer else { break }
      strings.append(String(cString: pointer))
    }
    try exit()
    return strings
  }

  /// A variant holding an `a{ss}`; nil when it holds anything else.
  func stringDictionaryInVariant() throws -> [String: String]? {
    guard library.sd_bus_message_enter_container(message, SessionBusWriter.type("v"), "a{ss}") > 0
    else { return nil }
    try enter(SessionBusWriter.type("a"), "{ss}", what: "a dictionary")
    var dictionary: [String: String] = [:]
    while try enter(SessionBusWriter.type("e"), "ss", what: "a dictionary entry") > 0 {
      var key: UnsafePointer<CChar>?
      var value: UnsafePointer<CChar>?
      try read(SessionBusWriter.type("s"), into: &key, what: "a key")
      try read(SessionBusWriter.type("s"), into: &value, what: "a value")
      if let key, let value { dictionary[String(cString: key)] = String(cString: value) }
      try exit()
    }
    try exit()
    try exit()
    return dictionary
  }

  /// Reads a basic value into `value`: an `Int32` for a `b`, a C string for an `s` or `o`.
  /// Returns 0 at the end of the container it reads from.
  @discardableResult
  private func read(_ type: CChar, into value: UnsafeMutableRawPointer, what: String) throws
    -> Int32
  {
    let result = library.sd_bus_message_read_basic(message, type, value)
    guard result >= 0 else { throw SessionBusError.malformed("\(what) in (\(signature))") }
    return result
  }

  @discardableResult
  private func enter(_ type: CChar, _ contents: String, what: String) throws -> Int32 {
    let result = library.sd_bus_message_enter_container(message, type, contents)
    guard result >= 0 else { throw SessionBusError.malformed("\(what) in (\(signature))") }
    return result
  }

  private func exit() throws {
    guard library.sd_bus_message_exit_container(message) >= 0 else {
      throw SessionBusError.malformed("the end of a container in (\(signature))")
    }
  }
}
