/// Something that happened in the notification center while the app was watching.
public enum RealtimeEvent: Equatable, Sendable {
  /// Somebody new liked you.
  case likedYouInserted(LikedUser)
  /// Somebody became a mutual match.
  case mutualMatch(LikedUser)
}

/// A batch of events from the server, with the sequence number to resume after.
public struct RealtimeEventBatch: Equatable, Sendable {
  public let events: [RealtimeEvent]
  /// The highest sequence number so far; asking for events after it misses nothing and
  /// repeats nothing.
  public let last: Int

  public init(events: [RealtimeEvent], last: Int) {
    self.events = events
    self.last = last
  }
}

/// What a realtime watch hears: the events, in order and each once, and news of the
/// connection behind them, so that a watch that keeps failing can say so once and say once
/// when it is back.
public enum RealtimeSignal: Sendable {
  case event(RealtimeEvent)
  /// Polls have kept failing (`RealtimeRetry.failuresBeforeSaying` in a row); the service
  /// goes on trying. Sent once for each run of failures, with the newest one.
  case interrupted(any Error)
  /// A poll worked again after `interrupted`. The events of the gap follow (the contract's
  /// `after` misses nothing), but what else changed meanwhile is not told: cached pages are
  /// stale.
  case resumed
  /// The server's events were reset: it answered a `last` lower than the `after` asked (a new
  /// database, a restore). The service goes on from that `last`; cached pages are stale.
  case serverReset
}

/// The seed's `RealtimeEventsService`: the events from now on, in order, each once, until
/// the session ends.
///
/// A throwing stream, where the seed's was not: a session that ends (401), or a request the
/// server says is wrong, ends the stream with the reason instead of leaving it silent.
/// Anything else is tried again, for as long as the stream is consumed.
public protocol RealtimeEventsService: Sendable {
  func events() -> AsyncThrowingStream<RealtimeSignal, any Error>
}

/// The long-poll endpoint behind the service (`GET /events?after=SEQ&wait=S`).
public protocol RealtimeEventsRemoteAPI: Sendable {
  func fetchEvents(after: Int, wait: Int, token: AccessToken) async throws -> RealtimeEventBatch
}
