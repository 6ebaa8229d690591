import Contract
import Foundation

/// An answer of the embedded backend: a status and JSON bytes, as a real server sends them.
public struct BackendHTTPResponse: Sendable, Equatable {
  public let status: Int
  public let headers: [String: String]
  public let body: Data
  /// For a failure no route expected: what failed, in the store's words. The body says it
  /// too, for the in-process client, whose person owns the file; a server writes it to its
  /// own log and sends its clients a body without it (`BackendHTTPServer`).
  public let failure: String?

  public init(
    status: Int, headers: [String: String] = [:], body: Data = Data(), failure: String? = nil
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.failure = failure
  }

  package static func json(_ status: Int, _ value: some Encodable) -> BackendHTTPResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return BackendHTTPResponse(
      status: status, headers: ["Content-Type": "application/json"],
      body: try! encoder.encode(value))
  }

  /// JSON written by hand, for the answers asked most.
  package static func json(_ status: Int, bytes: Data) -> BackendHTTPResponse {
    BackendHTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
  }

  /// The `500` of a failure no route expected, with what the store knows of it.
  package static func serverFailure(_ error: any Error) -> BackendHTTPResponse {
    let detail = (error as? DiagnosedFailure)?.diagnosis.map { " (\($0))" } ?? ""
    let failure = "The backend failed: \(error)\(detail)"
    let answer = Self.error(500, "server_error", failure)
    return BackendHTTPResponse(
      status: 500, headers: answer.headers, body: answer.body, failure: failure)
  }

  /// The contract's error body: `{"error": code, "error_description": text}`.
  package static func error(_ status: Int, _ code: String, _ description: String)
    -> BackendHTTPResponse
  {
    json(status, APIAnswer.Error(error: code, errorDescription: description))
  }

  package static let noContent = BackendHTTPResponse(status: 204)

  /// The contract's error body with a `Retry-After` in whole seconds (429, 503).
  package static func error(
    _ status: Int, _ code: String, _ description: String, retryAfter seconds: Int
  ) -> BackendHTTPResponse {
    let answer = error(status, code, description)
    var headers = answer.headers
    headers["Retry-After"] = String(seconds)
    return BackendHTTPResponse(status: status, headers: headers, body: answer.body)
  }
}

extension BackendHTTPResponse {
  /// A path of the contract called with a method it does not take: `405`, with the methods
  /// it does take in `Allow` (RFC 9110, 15.5.6).
  package static func methodNotAllowed(
    _ allowed: [APIMethod], method: String, path: String
  ) -> BackendHTTPResponse {
    let answer = error(
      405, "method_not_allowed",
      "\(path) does not take \(method); it takes \(allowed.map(\.rawValue).joined(separator: ", "))"
    )
    var headers = answer.headers
    headers["Allow"] = allowed.map(\.rawValue).joined(separator: ", ")
    return BackendHTTPResponse(status: 405, headers: headers, body: answer.body)
  }
}
