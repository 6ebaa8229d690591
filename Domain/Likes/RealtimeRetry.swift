/// The realtime watch's rules for failures: which end it, how long to pause before the next
/// try, and when a run of failures is worth telling the person.
public enum RealtimeRetry {
  /// The first pause; each failure in a row doubles it, up to `longestPause`.
  public static let firstPause = Duration.seconds(1)
  public static let longestPause = Duration.seconds(30)
  /// A failure or two is a blip (a deploy, a proxy that moved the connection); this many in a
  /// row is news.
  public static let failuresBeforeSaying = 3

  /// Whether `error` ends the watch for good: the session is over, or the server says the
  /// request itself is wrong. Everything else (the network, a 5xx, an unreadable answer, a
  /// keyring that did not answer) is tried again.
  public static func endsTheWatch(_ error: any Error) -> Bool {
    switch error {
    case is SessionError: true
    case let error as RemoteAPIError: error == .unauthorized || error.saysTheRequestIsWrong
    default: false
    }
  }

  /// The pause after `failures` failures in a row (1 for the first): 1 s, 2 s, 4 s … up to
  /// 30 s, less up to a quarter at random (`random` in 0..<1), so that many clients cut off
  /// at once do not all come back at the same moment. Never under 1 s, never over 30 s.
  public static func pause(afterFailures failures: Int, random: Double) -> Duration {
    let doublings = min(max(failures - 1, 0), 5)
    let full = min(firstPause * (1 << doublings), longestPause)
    let jittered = full - full * (0.25 * min(max(random, 0), 1))
    return max(jittered, firstPause)
  }

  /// The pause after `error`, the `failures`-th in a row: as above, but never shorter than
  /// the `Retry-After` of a server that said when to come back (a 503 at its connection cap,
  /// a 429), up to `longestPause`.
  public static func pause(after error: any Error, failures: Int, random: Double) -> Duration {
    let backoff = pause(afterFailures: failures, random: random)
    let asked: Int? =
      switch error as? RemoteAPIError {
      case .unavailable(let seconds?, _), .tooManyAttempts(let seconds?): seconds
      default: nil
      }
    guard let asked else { return backoff }
    return min(max(backoff, .seconds(asked)), longestPause)
  }
}
