import Contract
import Domain
import Foundation

extension HTTPLikesRemoteAPI: RealtimeEventsRemoteAPI {
  private struct EventsDTO: Decodable {
    let events: [EventDTO]
    let last: Int
  }

  private struct EventDTO: Decodable {
    let seq: Int
    let type: String
    let item: UserDTO
  }

  private struct UserDTO: Decodable {
    let id: String
    let userName: String
    let avatarURL: String?
  }

  public func fetchEvents(after: Int, wait: Int, token: AccessToken) async throws
    -> RealtimeEventBatch
  {
    var request = HTTPRequest(.events(after: after, wait: wait), on: endpoint)
    request.authorize(with: token)
    let response = try await client.send(request)
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
    guard let batch = try? JSONDecoder().decode(EventsDTO.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the events answer does not follow the contract")
    }
    // Event types this app does not know yet are passed over, not failed on.
    let events = batch.events.sorted { $0.seq < $1.seq }.compactMap { event -> RealtimeEvent? in
      let user = LikedUser(
        id: event.item.id.lowercased(), userName: event.item.userName,
        avatarURL: event.item.avatarURL)
      switch event.type {
      case "likedYouInserted": return .likedYouInserted(user)
      case "mutualMatch": return .mutualMatch(user)
      default: return nil
      }
    }
    return RealtimeEventBatch(events: events, last: batch.last)
  }
}
