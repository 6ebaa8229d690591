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
    let envelope = try Self.decodeEnvelope(data)
    guard envelope.statusCode == 200 else {
      throw .failed(statusCode: envelope.statusCode, message: Self.errorText(envelope.body))
    }
    body = try Self.decodeBody(envelope.body)
  }

  // MARK: - The envelope

  private struct Envelope: Decodable {
    let statusCode: Int
    let body: String

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: DynamicCodingKeys.self)
      let statusKey = DynamicCodingKeys(stringValue: "statusCode")
      let bodyKey = DynamicCodingKeys(stringValue: "body")
      guard let status = try? container.decode(Int.self, forKey: statusKey) else {
        throw EnvelopeError.statusCodeMissing
      }
      guard container.contains(bodyKey), try !container.decodeNil(forKey: bodyKey) else {
        throw EnvelopeError.bodyMissing
      }
      guard let body = try? container.decode(String.self, forKey: bodyKey) else {
        throw EnvelopeError.bodyNotAString
      }
      statusCode = status
      self.body = body
    }
  }

  private static func decodeEnvelope(_ data: Data) throws(EnvelopeError) -> Envelope {
    do {
      return try JSONDecoder().decode(Envelope.self, from: data)
    } catch let error as EnvelopeError {
      throw error
    } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
      throw .envelopeNotAnObject
    } catch {
      throw .envelopeNotJSON
    }
  }

  // MARK: - The body

  private static func decodeBody(_ text: String) throws(EnvelopeError) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(text.utf8))
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
