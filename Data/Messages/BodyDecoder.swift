import Foundation
import JSONTape

/// Decodes a messages body, the JSON inside the envelope's string, as `T`.
///
/// Two decoders, one answer. `TapeDecoder` reads the body from a `JSONTape` in one pass and
/// decodes it through `T`'s own `init(from:)`: on large bodies it is much faster than
/// Foundation's `JSONDecoder` (docs/messages.md has the figures), and builds nothing it
/// does not return. Whenever the tape
/// refuses anything (JSON it finds questionable, a shape `T` does not accept, a number it
/// leaves alone), `JSONDecoder` decodes the body instead and its answer is the one given:
/// every failure is named exactly as Foundation sees it, at the cost of a second pass on
/// an answer that is wrong anyway.
enum BodyDecoder {
  static func decode<T: Decodable>(_ type: T.Type, from json: [UInt8]) throws(EnvelopeError) -> T {
    if let value = TapeFirstDecoding.decodeWithTape(type, from: json) { return value }
    return try decodeWithFoundation(type, from: Data(json))
  }

  /// Foundation's answer, with its errors named for a person.
  static func decodeWithFoundation<T: Decodable>(_ type: T.Type, from json: Data)
    throws(EnvelopeError) -> T
  {
    do {
      return try JSONDecoder().decode(T.self, from: json)
    } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
      throw .bodyNotJSON
    } catch let error as DecodingError {
      throw .bodyMalformed(detail: describe(error))
    } catch {
      throw .bodyMalformed(detail: "\(error)")
    }
  }

  /// "a message at "john"[2] has no "subject"" rather than Foundation's debug text.
  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      let place = path(context.codingPath)
      return place.isEmpty ? "no \"\(key.stringValue)\"" : "\(place) has no \"\(key.stringValue)\""
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      let place = path(context.codingPath)
      return "\(place.isEmpty ? "the top level" : place) is not \(expectation(type))"
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)) is unreadable"
    @unknown default:
      return "\(error)"
    }
  }

  /// A coding path as a person reads it: `"john"[2].subject`.
  private static func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.enumerated().map { index, key in
      if let position = key.intValue { return "[\(position)]" }
      if index == 0 { return "\"\(key.stringValue)\"" }
      return ".\(key.stringValue)"
    }.joined()
  }

  private static func expectation(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is [MessageDTO].Type, is [Any].Type: "a list"
    case is Int.Type: "a number"
    case is Bool.Type: "true or false"
    default: "an object"
    }
  }
}
