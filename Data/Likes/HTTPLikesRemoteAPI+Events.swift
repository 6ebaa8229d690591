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
    guard let batch = try? JSONDecoder().decode(APIAnswer.Events.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the events answer does not follow the contract")
    }
    // Event types this app does not know yet are passed over, not failed on.
    let events = batch.events.sorted { $0.seq < $1.seq }.compactMap { event -> NumberedEvent? in
      switch event.type {
      case APIAnswer.Event.likedYouInserted:
        return NumberedEvent(seq: event.seq, .likedYouInserted(event.item.user))
      case APIAnswer.Event.mutualMatch:
        return NumberedEvent(seq: event.seq, .mutualMatch(event.item.user))
      default: return nil
      }
    }
    return RealtimeEventBatch(events: events, last: batch.last)
  }
}
