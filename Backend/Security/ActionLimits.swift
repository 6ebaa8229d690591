import Foundation
import Synchronization

/// How many likes and messages one account may send: a burst, then a steady pace. Past it,
/// a `429` `too_many_attempts` with `Retry-After` (API.md, "Limits"). The defaults are what
/// `app serve` faces the internet with (docs/server.md): a person meeting people never
/// reaches them; a script that likes everybody, or floods a match, does within seconds.
public struct ActionLimits: Sendable {
  public struct Pace: Sendable {
    /// How many may be sent at once, after a rest.
    public var burst: Int
    /// How long earns one more, once the burst is spent.
    public var interval: TimeInterval

    public init(burst: Int, interval: TimeInterval) {
      self.burst = burst
      self.interval = interval
    }

    /// Up to `count` at once, then one every minute / `count`: `count` a minute, at most.
    public init(perMinute count: Int) {
      self.init(burst: count, interval: 60 / Double(count))
    }
  }

  public var likes: Pace
  public var messages: Pace

  public init(
    likes: Pace = Pace(perMinute: defaultLikesPerMinute),
    messages: Pace = Pace(perMinute: defaultMessagesPerMinute)
  ) {
    self.likes = likes
    self.messages = messages
  }

  /// `app serve`'s defaults (`--likes-per-minute`, `--messages-per-minute`).
  public static let defaultLikesPerMinute = 30
  public static let defaultMessagesPerMinute = 60
}

/// The accounts' token buckets, one per account and kind of action, kept by each process
/// serving: with several instances behind a balancer an account may send a little more
/// than one instance allows, never unbounded (docs/server.md).
final class ActionThrottle: Sendable {
  enum Action: Sendable { case like, message }

  private struct Bucket {
    var tokens: Double
    var at: Date
  }

  private let limits: ActionLimits
  private let buckets = Mutex<[String: Bucket]>([:])
  /// Past this many accounts kept, the full buckets (accounts at rest) are let go.
  private let pruneAbove = 10_000

  init(_ limits: ActionLimits) {
    self.limits = limits
  }

  /// Takes one action's token, or says in how many whole seconds one will be there.
  func admit(_ action: Action, accountID: String, now: Date) -> Int? {
    let pace = action == .like ? limits.likes : limits.messages
    let key = (action == .like ? "like:" : "message:") + accountID
    return buckets.withLock { buckets in
      var bucket = buckets[key] ?? Bucket(tokens: Double(pace.burst), at: now)
      let earned = max(0, now.timeIntervalSince(bucket.at)) / pace.interval
      bucket.tokens = min(Double(pace.burst), bucket.tokens + earned)
      bucket.at = now
      guard bucket.tokens >= 1 else {
        buckets[key] = bucket
        return max(1, Int(((1 - bucket.tokens) * pace.interval).rounded(.up)))
      }
      bucket.tokens -= 1
      buckets[key] = bucket
      if buckets.count > pruneAbove { Self.prune(&buckets, now: now, limits: limits) }
      return nil
    }
  }

  private static func prune(_ buckets: inout [String: Bucket], now: Date, limits: ActionLimits) {
    let longest = max(
      Double(limits.likes.burst) * limits.likes.interval,
      Double(limits.messages.burst) * limits.messages.interval)
    buckets = buckets.filter { now.timeIntervalSince($0.value.at) < longest }
  }
}

extension APIBackend {
  /// Lets the account like once more, or ends the request with a `429`.
  func admitLike(from account: AccountRecord) throws {
    try admit(.like, account, "likes")
  }

  /// Lets the account send one more message, or ends the request with a `429`.
  func admitMessage(from account: AccountRecord) throws {
    try admit(.message, account, "messages")
  }

  private func admit(_ action: ActionThrottle.Action, _ account: AccountRecord, _ what: String)
    throws
  {
    if let wait = actionThrottle.admit(action, accountID: account.id, now: now()) {
      throw BackendFailure(
        .error(
          429, "too_many_attempts", "Too many \(what) at once: try again in \(wait) s",
          retryAfter: wait))
    }
  }
}
