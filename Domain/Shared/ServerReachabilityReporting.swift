/// Told how each request to the app's server went, as far as the network is concerned: the
/// one feed of the app's reachability (online, reconnecting, offline), which Presentation
/// holds for the session. Data's HTTP client reports every request; nothing else decides
/// whether the server is reachable.
public protocol ServerReachabilityReporting: Sendable {
  /// A request is about to be sent. Nil: send it; it is asking the server until
  /// `requestEnded()`. Otherwise the failure to end it with at once, unsent: the server is
  /// offline and a request already asking it has not come back, so this one could only wait
  /// as long for the same silence.
  func requestStarting() -> RemoteAPIError?
  /// A request that `requestStarting()` let through has ended, however it ended.
  func requestEnded()
  /// The server answered (any status but a proxy's 502, 503 or 504).
  func serverAnswered()
  /// The request failed on the network (`RemoteAPIError.isNetworkFailure`).
  func serverOutOfReach(_ failure: RemoteAPIError)
}
