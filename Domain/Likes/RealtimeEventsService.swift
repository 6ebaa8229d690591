/// The seed's `RealtimeEventsService`: the events from now on, in order, each once, until
/// the session ends.
///
/// A throwing stream, where the seed's was not: a session that ends (401), or a request the
/// server says is wrong, ends the stream with the reason instead of leaving it silent.
/// Anything else is tried again, for as long as the stream is consumed.
public protocol RealtimeEventsService: Sendable {
  func events() -> AsyncThrowingStream<RealtimeSignal, any Error>
}
