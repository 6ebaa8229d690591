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

  private struct UserModelDTO: Decodable {
    let id: String
    let userName: String
    let avatarURL: String?

    var user: LikedUser { LikedUser(id: id.lowercased(), userName: userName, avatarURL: avatarURL) }
  }

  private struct PageDTO: Decodable {
    let data: [UserModelDTO]
    let nextCursor: Int?
  }

  private struct LikeDTO: Decodable {
    let mutualMatch: Bool
    let item: UserModelDTO
  }

  private struct MutualsDTO: Decodable {
    let data: [UserModelDTO]
  }

  public func fetchData(page: Int, batchSize: Int, token: AccessToken) async throws -> (
    data: [LikedUser], nextCursor: Int?
  ) {
    let url = endpoint.url(
      "/likes",
      query: [
        URLQueryItem(name: "page", value: "\(page)"),
        URLQueryItem(name: "batchSize", value: "\(batchSize)"),
      ])
    let page: PageDTO = try await send(request(url, token: token), what: "likes page")
    return (page.data.map(\.user), page.nextCursor)
  }

  public func like(id: String, token: AccessToken) async throws -> (
    mutualMatch: Bool, item: LikedUser
  ) {
    var request = request(
      endpoint.url("/likes/\(APIEndpoint.encodeSegment(id))/like"), token: token)
    request.method = "POST"
    let answer: LikeDTO = try await send(request, what: "like answer", id: id)
    return (answer.mutualMatch, answer.item.user)
  }

  public func skip(id: String, token: AccessToken) async throws {
    var request = request(endpoint.url("/likes/\(APIEndpoint.encodeSegment(id))"), token: token)
    request.method = "DELETE"
    try Self.check(try await client.send(request), id: id)
  }

  public func fetchMutuals(token: AccessToken) async throws -> [LikedUser] {
    let answer: MutualsDTO = try await send(
      request(endpoint.url("/mutuals"), token: token), what: "mutuals list")
    return answer.data.map(\.user)
  }

  private func request(_ url: URL, token: AccessToken) -> HTTPRequest {
    var request = HTTPRequest(url: url)
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
