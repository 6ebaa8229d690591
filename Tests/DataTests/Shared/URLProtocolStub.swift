import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Answers URLSession requests in process. Answers are keyed by host, so that tests running
/// in parallel each get their own.
final class URLProtocolStub: URLProtocol {
  // URLProtocol subclasses cannot be made Sendable: Foundation creates and calls them on its
  // own threads. This one holds no state of its own; the shared table is behind a Mutex.

  enum Answer: Sendable {
    case response(status: Int, body: Data)
    case failure(URLError.Code)
  }

  private static let answers = Mutex<[String: Answer]>([:])
  private static let seen = Mutex<[String: [URLRequest]]>([:])

  static func stub(host: String, with answer: Answer) {
    answers.withLock { $0[host] = answer }
  }

  static func requests(to host: String) -> [URLRequest] {
    seen.withLock { $0[host] ?? [] }
  }

  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    let host = request.url?.host ?? ""
    Self.seen.withLock { $0[host, default: []].append(request) }
    switch Self.answers.withLock({ $0[host] }) {
    case .response(let status, let body):
      let response = HTTPURLResponse(
        url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!
      client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      client?.urlProtocol(self, didLoad: body)
      client?.urlProtocolDidFinishLoading(self)
    case .failure(let code):
      client?.urlProtocol(self, didFailWithError: URLError(code))
    case nil:
      client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
    }
  }

  override func stopLoading() {}
}
