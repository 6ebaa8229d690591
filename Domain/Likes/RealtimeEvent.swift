/// Something that happened in the notification center while the app was watching.
public enum RealtimeEvent: Equatable, Sendable {
  /// Somebody new liked you.
  case likedYouInserted(LikedUser)
  /// Somebody became a mutual match.
  case mutualMatch(LikedUser)
  /// A match wrote to you.
  case message(from: LikedUser, Message)
  /// A match ended the match (an unmatch, or a block, which is told the same): the
  /// conversation is gone.
  case unmatched(LikedUser)
}

/// An event with the server's sequence number for it: the same event has the same number
/// for every client that hears of it, which is how clients sharing a data folder count it
/// once.
public struct NumberedEvent: Equatable, Sendable {
  public let seq: Int
  public let event: RealtimeEvent

  public init(seq: Int, _ event: RealtimeEvent) {
    self.seq = seq
    self.event = event
  }
}

/// A batch of events from the server, with the sequence number to resume after.
public struct RealtimeEventBatch: Equatable, Sendable {
  public let events: [NumberedEvent]
  /// The highest sequence number so far; asking for events after it misses nothing and
  /// repeats nothing.
  public let last: Int

  public init(events: [NumberedEvent], last: Int) {
    self.events = events
    self.last = last
  }
}

/// What a realtime watch hears: the events, in order and each once, and news of the
/// connection behind them, so that a watch that keeps failing can say so once and say once
/// when it is back.
public enum RealtimeSignal: Sendable {
  /// The watch has asked where the server's events stand, and goes on from `last`: sent
  /// once, first.
  case watching(from: Int)
  case event(RealtimeEvent, seq: Int)
  /// Polls have kept failing (`RealtimeRetry.failuresBeforeSaying` in a row); the service
  /// goes on trying. Sent once for each run of failures, with the newest one.
  case interrupted(any Error)
  /// A poll worked again after `interrupted`. The events of the gap follow (the contract's
  /// `after` misses nothing), but what else changed meanwhile is not told: cached pages are
  /// stale.
  case resumed
  /// The server's events were reset: it answered a `last` lower than the `after` asked (a new
  /// database, a restore). The service goes on from that `last`; cached pages are stale.
  case serverReset(last: Int)
}
