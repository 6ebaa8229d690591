import Foundation

/// What bounds sign-ins on one backend: the throttle's waits and the hashing pool's size.
/// The defaults are the ones `app serve` faces the internet with.
public struct SignInLimits: Sendable {
  /// Failures per account or address before the first wait.
  public var freeFailures: Int
  /// The longest wait one account can be given, in seconds.
  public var longestAccountWait: Int
  /// The longest wait one address can be given, in seconds.
  public var longestAddressWait: Int
  /// Hashes computed at once behind the reads; by default half the cores, at least one. The
  /// lane ahead (`hashingAheadShare`) is one thread more.
  public var hashingThreads: Int
  /// Sign-ins that may wait for a hashing thread; past that they are answered 503.
  public var hashingQueue: Int
  /// The part of the cores that hashes may take ahead of the reads, on average; the rest
  /// run behind them (`PasswordHashingPool`). By default 0.15, chosen by measurement: at
  /// 0.25 a storm of sign-ins took more than half the likes page's speed (docs/server.md);
  /// 0 puts every hash behind.
  public var hashingAheadShare: Double

  public init(
    freeFailures: Int = 5, longestAccountWait: Int = 60, longestAddressWait: Int = 15 * 60,
    hashingThreads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2),
    hashingQueue: Int = 32, hashingAheadShare: Double = 0.15
  ) {
    self.freeFailures = freeFailures
    self.longestAccountWait = longestAccountWait
    self.longestAddressWait = longestAddressWait
    self.hashingThreads = hashingThreads
    self.hashingQueue = hashingQueue
    self.hashingAheadShare = hashingAheadShare
  }

  var throttle: SignInThrottle.Policy {
    var policy = SignInThrottle.Policy()
    policy.freeFailures = freeFailures
    policy.longestAccountWait = TimeInterval(longestAccountWait)
    policy.longestAddressWait = TimeInterval(longestAddressWait)
    return policy
  }
}
