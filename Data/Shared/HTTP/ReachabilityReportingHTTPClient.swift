import Domain

/// Reports how every request went to the session's reachability (`ServerReachabilityReporting`):
/// an answer, or a network failure (a refused, reset or dropped connection, a timeout, a
/// proxy's 502, 503 or 504). A request that was cancelled, or failed for any other reason,
/// says nothing about the network and reports nothing.
///
/// It also asks first: while the server is offline and another request is still waiting on
/// it (the shell's probe, the realtime poll), a request fails at once with what is known,
/// rather than wait out the same time limit for the same silence.
public struct ReachabilityReportingHTTPClient: HTTPClient {
  private let base: any HTTPClient
  private let reporting: any ServerReachabilityReporting

  public init(_ base: any HTTPClient, reporting: any ServerReachabilityReporting) {
    self.base = base
    self.reporting = reporting
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let known = reporting.requestStarting() { throw known }
    defer { reporting.requestEnded() }
    let response: HTTPResponse
    do {
      response = try await base.send(request)
    } catch let error as RemoteAPIError where error.isNetworkFailure {
      reporting.serverOutOfReach(error)
      throw error
    }
    if NetworkFailureStatus.isNetworkFailure(status: response.status) {
      reporting.serverOutOfReach(APIErrorMapper.map(response))
    } else {
      reporting.serverAnswered()
    }
    return response
  }
}
