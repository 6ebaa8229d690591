import Domain
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The live `HTTPClient`: Foundation's URLSession with a time limit on every request.
public final class URLSessionHTTPClient: HTTPClient {
  /// The contract's default: clients give up after 15 s and say so.
  public static let defaultTimeout: TimeInterval = 15

  private let session: URLSession
  private let timeout: TimeInterval

  public init(
    timeout: TimeInterval = defaultTimeout, configuration: URLSessionConfiguration = .ephemeral
  ) {
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    // Cookies and caches would be a second, unplanned place where session state lives.
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    self.session = URLSession(configuration: configuration)
    self.timeout = timeout
  }

  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    var request = request
    request.timeoutInterval = timeout
    let (data, response): (Data, URLResponse)
    do {
      (data, response) = try await URLSessionDataCall.run(request, on: session)
    } catch let error as URLError {
      throw Self.map(error, timeout: timeout, url: request.url)
    }
    guard let httpResponse = response as? HTTPURLResponse else {
      throw RemoteAPIError.invalidResponse(reason: "the answer was not an HTTP response")
    }
    return (data, httpResponse)
  }

  static func map(_ error: URLError, timeout: TimeInterval, url: URL?) -> RemoteAPIError {
    let host =
      url.flatMap { url in url.host.map { "\($0)\(url.port.map { ":\($0)" } ?? "")" } }
      ?? "the server"
    switch error.code {
    case .timedOut:
      return .timedOut(seconds: Int(timeout.rounded()))
    case .cannotConnectToHost, .networkConnectionLost:
      return .unreachable(reason: "could not connect to \(host)")
    case .cannotFindHost, .dnsLookupFailed:
      return .unreachable(reason: "unknown host \(host)")
    case .notConnectedToInternet:
      return .unreachable(reason: "no network connection")
    case .badServerResponse:
      return .invalidResponse(reason: "\(host) sent a malformed HTTP response")
    case .badURL, .unsupportedURL:
      return .unreachable(reason: "\(url?.absoluteString ?? "the address") is not a usable URL")
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      return .unreachable(reason: "no secure connection to \(host) (its TLS certificate)")
    default:
      // Foundation's own text names only a domain and a number ("NSURLErrorDomain error
      // -1000"): say what failed and keep the number for whoever debugs it.
      return .unreachable(reason: "\(host) could not be reached (URL error \(error.code.rawValue))")
    }
  }
}
