import Foundation

/// Asks once more when a read is answered `503 unavailable`, after the server's
/// `Retry-After` (API.md: the server is overloaded or shutting down; another instance, or the
/// same one a moment later, may answer).
///
/// Only reads (`GET`): a write that got a 503 may or may not have been done, and sending it
/// again is the person's decision. Only once, and only when the wait is at most
/// `longestWait`: a server that asks for longer is better reported at once, with its wait,
/// than waited for. No `Retry-After` means one second. The wait runs on `clock`.
public struct UnavailableRetryHTTPClient: HTTPClient {
  public static let longestWait = 15

  private let base: any HTTPClient
  private let clock: any Clock<Duration>

  public init(_ base: any HTTPClient, clock: any Clock<Duration>) {
    self.base = base
    self.clock = clock
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let response = try await base.send(request)
    let wait = response.retryAfter ?? 1
    guard response.status == 503, request.method == "GET", wait <= Self.longestWait else {
      return response
    }
    try await clock.sleep(for: .seconds(wait))
    return try await base.send(request)
  }
}
