/// A request's path and query, relative to the base URL: decoded segments and query items.
/// The one place where a path is split into segments and printed from them, for the client
/// and the server alike.
public struct RequestTarget: Sendable, Hashable {
  /// Decoded: a segment may hold `/`, `?`, spaces or emoji.
  public let pathSegments: [String]
  public let query: [QueryItem]

  public init(pathSegments: [String], query: [QueryItem] = []) {
    self.pathSegments = pathSegments
    self.query = query
  }

  /// Reads a request line's target, `/likes/a%2Fb?page=1`. Empty segments are dropped, so
  /// `/me/` is `/me`.
  public init(parsing text: Substring) {
    let pathEnd = text.firstIndex(of: "?") ?? text.endIndex
    pathSegments = text[..<pathEnd].split(separator: "/").map(Self.decode)
    guard pathEnd < text.endIndex else {
      query = []
      return
    }
    query = text[text.index(after: pathEnd)...].split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return QueryItem(
        Self.decode(parts[0], plusIsSpace: true),
        parts.count > 1 ? Self.decode(parts[1], plusIsSpace: true) : "")
    }
  }

  /// The path, each segment percent-encoded, starting with `/`.
  public var encodedPath: String {
    "/" + pathSegments.map(Self.encodeSegment).joined(separator: "/")
  }

  /// The query, percent-encoded, without its `?`; empty when there is none.
  public var encodedQuery: String {
    query.map { Self.encodeQueryPart($0.name) + "=" + Self.encodeQueryPart($0.value) }
      .joined(separator: "&")
  }

  /// The first value of `name`, as a server reads a query.
  public func value(of name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// Percent-encodes one path segment, so that a name with `/`, `?`, spaces or emoji stays
  /// one segment. `.` and `..` are encoded too: URL handling removes dot segments, so an
  /// id of `..` would otherwise ask for the parent path.
  public static func encodeSegment(_ segment: String) -> String {
    let encoded = encode(segment, keeping: unreservedOrSubDelimiter)
    guard !encoded.isEmpty, encoded.allSatisfy({ $0 == "." }) else { return encoded }
    return String(repeating: "%2E", count: encoded.count)
  }

  private static func encodeQueryPart(_ text: String) -> String {
    encode(text, keeping: unreserved)
  }

  /// RFC 3986's unreserved characters: never encoded.
  private static let unreserved = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
  /// Also allowed in a segment as they are, but `;`, which some servers read as parameters.
  private static let unreservedOrSubDelimiter = unreserved.union("!$&'()*+,=:@".utf8)

  private static func encode(_ text: String, keeping allowed: Set<UInt8>) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if allowed.contains(byte) {
        bytes.append(byte)
      } else {
        bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Decodes `%XX` escapes (and `+` in a query); an escape that is not one is kept as it is.
  private static func decode(_ text: Substring) -> String {
    decode(text, plusIsSpace: false)
  }

  private static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
    let utf8 = Array(text.utf8)
    guard utf8.contains(UInt8(ascii: "%")) || (plusIsSpace && utf8.contains(UInt8(ascii: "+")))
    else { return String(text) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
        let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
