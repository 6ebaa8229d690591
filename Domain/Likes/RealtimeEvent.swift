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

/// The seed's `RealtimeEventsService`: the events from now on, in order, each once.
///
/// A throwing stream, where the seed's was not: a session that ends (401) must end the
/// stream with a reason instead of leaving it silent.
public protocol RealtimeEventsService: Sendable {
  func events() -> AsyncThrowingStream<RealtimeEvent, any Error>
}

/// The long-poll endpoint behind the service (`GET /events?after=SEQ&wait=S`).
public protocol RealtimeEventsRemoteAPI: Sendable {
  func fetchEvents(after: Int, wait: Int, token: AccessToken) async throws -> RealtimeEventBatch
}
