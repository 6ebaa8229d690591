import Contract
import Domain
import Foundation

extension HTTPLikesRemoteAPI: RealtimeEventsRemoteAPI {
  public func fetchEvents(after: Int, wait: Int, token: AccessToken) async throws
    -> RealtimeEventBatch
  {
    var request = HTTPRequest(.events(after: after, wait: wait), on: endpoint)
    request.authorize(with: token)
    let response = try await client.send(request)
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
    guard let batch = try? JSONDecoder().decode(EventsBody.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the events answer does not follow the contract")
    }
    // Event types this app does not know yet are passed over, not failed on, whatever they
    // carry; the batch's `last` still moves the follower past them.
    let events = batch.events.sorted { $0.seq < $1.seq }.compactMap { read -> NumberedEvent? in
      guard let event = read.event else { return nil }
      switch event.type {
      case APIAnswer.Event.likedYouInserted:
        return NumberedEvent(seq: event.seq, .likedYouInserted(event.item.user))
      case APIAnswer.Event.mutualMatch:
        return NumberedEvent(seq: event.seq, .mutualMatch(event.item.user))
      case APIAnswer.Event.message:
        // A message event without its message cannot be shown: passed over, as unknown.
        guard let message = event.message else { return nil }
        return NumberedEvent(
          seq: event.seq,
          .message(
            from: event.item.user,
            Message(
              subject: message.subject, text: message.message, fromMe: message.fromMe,
              sentAt: message.sentAt.map { Date(timeIntervalSince1970: TimeInterval($0)) })))
      case APIAnswer.Event.unmatched:
        return NumberedEvent(seq: event.seq, .unmatched(event.item.user))
      default: return nil
      }
    }
    return RealtimeEventBatch(events: events, last: batch.last)
  }
}

/// `GET /events` read one event at a time: an event of a type this app does not know may
/// have a shape of its own, and must not make the batch unreadable.
private struct EventsBody: Decodable {
  let events: [ReadEvent]
  let last: Int
}

private struct ReadEvent: Decodable {
  let seq: Int
  /// Nil for an event this app cannot read: passed over.
  let event: APIAnswer.Event?

  private enum CodingKeys: String, CodingKey { case seq }

  init(from decoder: any Decoder) throws {
    seq = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .seq)
    event = try? APIAnswer.Event(from: decoder)
  }
}
