import Backend
import Foundation

/// The id that ties an access-log line to a request: the caller's own `X-Request-ID` when it
/// is a short token (a proxy in front may have set it), otherwise a new random one.
enum RequestID {
  static func take(from headerValue: String?) -> String {
    if let value = headerValue, (1...64).contains(value.utf8.count),
      value.utf8.allSatisfy(isTokenByte)
    {
      return value
    }
    return make()
  }

  /// 16 hex digits from the system's random source.
  static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    return String(format: "%016llx", generator.next() as UInt64)
  }

  /// Letters, digits, '-', '_' and '.': nothing that could forge a log line or a header.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
      UInt8(ascii: "."):
      true
    default: false
    }
  }
}
