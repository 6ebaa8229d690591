extension RemoteAPIError {
  /// Failures that say nothing about the request or the data, only that the server could
  /// not be reached through the network now: a refused, reset or dropped connection, no
  /// answer in time, or a proxy in front of it saying the same (502, 504, and 503 with or
  /// without `Retry-After`). They are worth trying again, a cached copy may stand in, and
  /// while they last the app is offline.
  public var isNetworkFailure: Bool {
    switch self {
    case .unreachable, .timedOut, .unavailable: true
    // A 503 arrives as `.unavailable`; the statuses are listed once, below.
    case .server(let status, _, _): NetworkFailureStatus.isNetworkFailure(status: status)
    default: false
    }
  }

  /// A 4xx that says the request itself is wrong: asking again, unchanged, gets the same
  /// answer. A 401 is the session's end (`SessionError.expired` by then); 408 and 429 say
  /// "not now", not "wrong".
  public var saysTheRequestIsWrong: Bool {
    switch self {
    case .bodyTooLarge: true
    case .server(let status, _, _): (400..<500).contains(status) && status != 408 && status != 429
    default: false
    }
  }
}

/// How a failure's HTTP status is read when it comes as a response rather than an error:
/// the network failures a proxy answers for a server it cannot reach.
public enum NetworkFailureStatus {
  public static func isNetworkFailure(status: Int) -> Bool {
    status == 502 || status == 503 || status == 504
  }
}
