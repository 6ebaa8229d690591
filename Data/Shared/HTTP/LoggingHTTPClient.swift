import Foundation
import Logging

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

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let method = request.method
    let path = request.url.path
    logger.debug("→ \(method) \(path)")
    do {
      let response = try await wrapped.send(request)
      logger.debug("← \(response.status) \(method) \(path) (\(response.body.count) bytes)")
      return response
    } catch {
      logger.debug("✗ \(method) \(path): \(error)")
      throw error
    }
  }
}
