import Backend
import Contract
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import SystemSupport
import UnixSignals

extension BackendHTTPRequest {
  /// The request as the backend reads it: its target (below the served prefix), headers,
  /// the body and the client's address; nil when the body is over `limit`. A `Content-Length`
  /// over the limit is refused before a byte of the body is read; a body sent without one is
  /// read up to the limit and no further.
  init?(
    _ request: Request, target: RequestTarget, resolved: APIOperation.Resolved, upTo limit: Int,
    from remoteAddress: String?
  ) async throws {
    if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
      return nil
    }
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: limit)
    } catch is NIOTooManyBytesError {
      return nil
    }
    // Canonical names are lowercase already.
    var headers: [String: String] = [:]
    for field in request.headers { headers[field.name.canonicalName] = field.value }
    self.init(
      method: request.method.rawValue, target: target, resolved: resolved,
      lowercasedHeaders: headers, body: Data(body.readableBytesView),
      remoteAddress: remoteAddress)
  }
}

extension Response {
  init(_ answer: BackendHTTPResponse) {
    var fields = HTTPFields()
    for (name, value) in answer.headers where name.lowercased() != "content-length" {
      if let fieldName = HTTPFields.Element.Name(name) { fields[fieldName] = value }
    }
    self.init(
      status: .init(code: answer.status), headers: fields,
      body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
  }
}
