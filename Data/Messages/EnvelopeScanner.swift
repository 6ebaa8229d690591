import Foundation
import JSONTape

/// Reads the messages envelope's top level: `statusCode` and the `body` string's text,
/// unescaped into UTF-8 bytes, with `JSONTape`'s grammar (`JSONTape.topLevelMembers`).
///
/// The seed let JSONDecoder build a `String` of the whole body and then copied it into
/// `Data` for the second decode: two extra copies of a body that can be tens of megabytes.
/// Only the envelope is read here; the body itself is left to `BodyDecoder`.
enum EnvelopeScanner {
  struct Envelope {
    let statusCode: Int
    /// The body string's text, unescaped, as UTF-8.
    let body: [UInt8]
  }

  static func scan(_ data: Data) throws(EnvelopeError) -> Envelope {
    let read: Result<[String: JSONMemberValue], JSONScanError> = data.withUnsafeBytes { raw in
      Result { () throws(JSONScanError) in
        try JSONTape.topLevelMembers(
          of: raw.bindMemory(to: UInt8.self), keeping: ["statusCode", "body"])
      }
    }
    let members: [String: JSONMemberValue]
    switch read {
    case .success(let read): members = read
    case .failure(.notJSON): throw .envelopeNotJSON
    case .failure(.notAnObject): throw .envelopeNotAnObject
    }
    guard case .number(let text)? = members["statusCode"], let statusCode = wholeNumber(text)
    else { throw .statusCodeMissing }
    switch members["body"] {
    case nil, .null?: throw .bodyMissing
    case .string(let body)?: return Envelope(statusCode: statusCode, body: body)
    default: throw .bodyNotAString
    }
  }

  /// A JSON number that is a whole number (200, 200.0, 2e2); anything else (2.5) is no status.
  private static func wholeNumber(_ text: String) -> Int? {
    if let whole = Int(text) { return whole }
    guard let value = Double(text), value == value.rounded(), abs(value) < 1e15 else { return nil }
    return Int(value)
  }
}
