/// The long-poll endpoint behind the service (`GET /events?after=SEQ&wait=S`).
public protocol RealtimeEventsRemoteAPI: Sendable {
  func fetchEvents(after: Int, wait: Int, token: AccessToken) async throws -> RealtimeEventBatch
}
