import Contract
import Domain
import Foundation

/// `PeopleRemoteAPI` over HTTP, per section 5 of the backend contract.
public struct HTTPPeopleRemoteAPI: PeopleRemoteAPI {
  let endpoint: APIEndpoint
  let client: any HTTPClient

  public init(endpoint: APIEndpoint, client: any HTTPClient) {
    self.endpoint = endpoint
    self.client = client
  }

  public func fetchPeople(page: Int, batchSize: Int, token: AccessToken) async throws -> (
    data: [LikedUser], nextCursor: Int?
  ) {
    let answer: APIAnswer.LikesPage = try await send(
      .peoplePage(page: page, batchSize: batchSize), token: token, what: "people page")
    return (answer.data.map(\.user), answer.nextCursor)
  }

  public func like(personID: String, token: AccessToken) async throws -> (
    mutualMatch: Bool, item: LikedUser
  ) {
    let answer: APIAnswer.LikeBack = try await send(
      .likePerson(id: personID), token: token, what: "like answer", id: personID)
    return (answer.mutualMatch, answer.item.user)
  }

  public func pass(personID: String, token: AccessToken) async throws {
    try await sendExpectingNothing(.passPerson(id: personID), token: token, id: personID)
  }

  public func block(personID: String, token: AccessToken) async throws {
    try await sendExpectingNothing(.blockPerson(id: personID), token: token, id: personID)
  }

  public func unmatch(id: String, token: AccessToken) async throws {
    let response = try await client.send(request(.unmatch(id: id), token: token))
    guard !response.isSuccess else { return }
    if response.status == 404 { throw PeopleError.notAMatch(id: id) }
    throw APIErrorMapper.map(response)
  }

  private func request(_ route: APIRoute, token: AccessToken) -> HTTPRequest {
    var request = HTTPRequest(route, on: endpoint)
    request.authorize(with: token)
    return request
  }

  private func send<T: Decodable>(
    _ route: APIRoute, token: AccessToken, what: String, id: String? = nil
  ) async throws -> T {
    let response = try await client.send(request(route, token: token))
    try Self.check(response, id: id)
    guard let decoded = try? JSONDecoder().decode(T.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the \(what) does not follow the contract")
    }
    return decoded
  }

  private func sendExpectingNothing(_ route: APIRoute, token: AccessToken, id: String)
    async throws
  {
    try Self.check(try await client.send(request(route, token: token)), id: id)
  }

  /// A `404` is an unknown id, and a `422` on an id the user's own: the contract's meanings
  /// for section 5. Anything else is the shared mapping's.
  private static func check(_ response: HTTPResponse, id: String?) throws {
    guard !response.isSuccess else { return }
    if let id, response.status == 404 { throw PeopleError.unknownPerson(id: id) }
    if id != nil, response.status == 422 { throw PeopleError.ownID }
    throw APIErrorMapper.map(response)
  }
}
