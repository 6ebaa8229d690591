import Foundation

/// The messages envelope, `{"statusCode": Int, "body": String}`, whose `body` is itself a
/// JSON document encoded as a string, decoded as `T`.
///
/// The seed's design, with what it left out: the envelope's `statusCode` decides success
/// (HTTP 200 with `statusCode` 503 is an error carrying the body's text), and every way the
/// answer can be wrong ends in a named `EnvelopeError` instead of a crash or a bare
/// `DecodingError`.
struct BackendResponse<T: DecodableResponse> {
  let body: T

  init(data: Data) throws(EnvelopeError) {
    body = try Self.decodeBody(try Self.successfulBody(data))
  }

  /// The body's JSON when the envelope's `statusCode` is 200. A function of its own so that
  /// the scanner's buffer is freed before the body is decoded: one copy of the body alive,
  /// not two.
  private static func successfulBody(_ data: Data) throws(EnvelopeError) -> Data {
    let envelope = try EnvelopeScanner.scan(data)
    guard envelope.statusCode == 200 else {
      let text = String(decoding: envelope.body, as: UTF8.self)
      throw .failed(statusCode: envelope.statusCode, message: errorText(text))
    }
    return Data(envelope.body)
  }

  // MARK: - The body

  private static func decodeBody(_ json: Data) throws(EnvelopeError) -> T {
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
    default: "an object"
    }
  }

  /// The body of a failed envelope is `{"error": text}` as a string, or plain text.
  static func errorText(_ body: String) -> String {
    if let decoded = try? JSONDecoder().decode(EnvelopeErrorBody.self, from: Data(body.utf8)) {
      return decoded.error
    }
    let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return "no details given" }
    return trimmed.count > 300 ? String(trimmed.prefix(300)) + "…" : trimmed
  }
}

/// The `{"error": text}` a failed envelope's body may hold.
private struct EnvelopeErrorBody: Decodable {
  let error: String
}
