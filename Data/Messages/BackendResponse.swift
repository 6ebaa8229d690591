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
    body = try BodyDecoder.decode(T.self, from: try Self.successfulBody(data))
  }

  /// The envelope of `data`, its body decoded by `decodeBody` (everybody's messages decode
  /// on two threads: `AllMessagesBody+Halves`).
  init(
    data: Data, decodingBody decodeBody: ([UInt8]) async throws(EnvelopeError) -> T
  ) async throws(EnvelopeError) {
    body = try await decodeBody(try Self.successfulBody(data))
  }

  /// The body's JSON when the envelope's `statusCode` is 200. A function of its own so that
  /// the scanner's buffer is freed before the body is decoded: one copy of the body alive,
  /// not two.
  private static func successfulBody(_ data: Data) throws(EnvelopeError) -> [UInt8] {
    let envelope = try EnvelopeScanner.scan(data)
    guard envelope.statusCode == 200 else {
      let text = String(decoding: envelope.body, as: UTF8.self)
      throw .failed(statusCode: envelope.statusCode, message: errorText(text))
    }
    return envelope.body
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
