import Data
import Domain
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An `HTTPClient` that records requests and answers each with what the test gave it.
final class HTTPClientStub: HTTPClient {
  private let answer: @Sendable (URLRequest) throws -> (Int, String)
  private let recorded = Mutex<[URLRequest]>([])

  /// `answer` returns a status and a body for each request, or throws a transport error.
  init(answer: @escaping @Sendable (URLRequest) throws -> (Int, String)) {
    self.answer = answer
  }

  convenience init(status: Int, body: String) {
    self.init { _ in (status, body) }
  }

  var requests: [URLRequest] { recorded.withLock { $0 } }

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    recorded.withLock { $0.append(request) }
    let (status, body) = try answer(request)
    let response = HTTPURLResponse(
      url: request.url!, statusCode: status, httpVersion: nil, headerFields: nil)!
    return (Data(body.utf8), response)
  }
}
