import Foundation
import Logging

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Logs each request's method, path and status around another client.
///
/// Headers and bodies are never logged: they carry bearer tokens and passwords.
public struct LoggingHTTPClient: HTTPClient {
  private let wrapped: any HTTPClient
  private let logger: Logger

  public init(_ wrapped: any HTTPClient, logger: Logger) {
    self.wrapped = wrapped
    self.logger = logger
  }

  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let method = request.httpMethod ?? "GET"
    let path = request.url?.path ?? "?"
    logger.debug("→ \(method) \(path)")
    do {
      let (data, response) = try await wrapped.send(request)
      logger.debug("← \(response.statusCode) \(method) \(path) (\(data.count) bytes)")
      return (data, response)
    } catch {
      logger.debug("✗ \(method) \(path): \(error)")
      throw error
    }
  }
}
