import Data
import Domain
import Foundation
import Synchronization

/// An `HTTPClient` that records requests and answers each with what the test gave it.
final class HTTPClientStub: HTTPClient {
  private let answer: @Sendable (HTTPRequest) throws -> (Int, String)
  private let retryAfter: @Sendable (Int) -> Int?
  private let recorded = Mutex<[HTTPRequest]>([])

  /// `answer` returns a status and a body for each request, or throws a transport error;
  /// `retryAfter` gives the `Retry-After` seconds sent with a status.
  init(
    retryAfter: @escaping @Sendable (Int) -> Int? = { _ in nil },
    answer: @escaping @Sendable (HTTPRequest) throws -> (Int, String)
  ) {
    self.answer = answer
    self.retryAfter = retryAfter
  }

  convenience init(status: Int, body: String) {
    self.init { _ in (status, body) }
  }

  var requests: [HTTPRequest] { recorded.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    recorded.withLock { $0.append(request) }
    let (status, body) = try answer(request)
    return HTTPResponse(status: status, body: Data(body.utf8), retryAfter: retryAfter(status))
  }
}
