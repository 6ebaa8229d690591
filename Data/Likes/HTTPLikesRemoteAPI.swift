import Contract
import Domain
import Foundation

/// `LikesRemoteAPI` over HTTP, per section 3 of the backend contract.
public struct HTTPLikesRemoteAPI: LikesRemoteAPI {
  let endpoint: APIEndpoint
  let client: any HTTPClient

  public init(endpoint: APIEndpoint, client: any HTTPClient) {
    self.endpoint = endpoint
    self.client = client
  }

  public func fetchData(page: Int, batchSize: Int, token: AccessToken) async throws -> (
    data: [LikedUser], nextCursor: Int?
  ) {
    let page: APIAnswer.LikesPage = try await send(
      request(.likesPage(page: page, batchSize: batchSize), token: token), what: "likes page")
    return (page.data.map(\.user), page.nextCursor)
  }

  public func like(id: String, token: AccessToken) async throws -> (
    mutualMatch: Bool, item: LikedUser
  ) {
    let answer: APIAnswer.LikeBack = try await send(
      request(.likeBack(id: id), token: token), what: "like answer", id: id)
    return (answer.mutualMatch, answer.item.user)
  }

  public func skip(id: String, token: AccessToken) async throws {
    try Self.check(try await client.send(request(.skipLike(id: id), token: token)), id: id)
  }

  public func fetchMutuals(token: AccessToken) async throws -> [LikedUser] {
    let answer: APIAnswer.Mutuals = try await send(
      request(.mutuals, token: token), what: "mutuals list")
    return answer.data.map(\.user)
  }

  private func request(_ route: APIRoute, token: AccessToken) -> HTTPRequest {
    var request = HTTPRequest(route, on: endpoint)
    request.authorize(with: token)
    return request
  }

  private func send<T: Decodable>(_ request: HTTPRequest, what: String, id: String? = nil)
    async throws -> T
  {
    let response = try await client.send(request)
    try Self.check(response, id: id)
    guard let decoded = try? JSONDecoder().decode(T.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the \(what) does not follow the contract")
    }
    return decoded
  }

  private static func check(_ response: HTTPResponse, id: String?) throws {
    guard !response.isSuccess else { return }
    if response.status == 404, let id { throw LikesError.unknownPerson(id: id) }
    throw APIErrorMapper.map(response)
  }
}

extension APIAnswer.UserModel {
  /// Ids are matched without regard to case: the app keeps them lowercased.
  var user: LikedUser {
    LikedUser(id: id.lowercased(), userName: userName, avatarURL: avatarURL, name: name)
  }
}
