import Data
import Domain
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct HTTPLikesRemoteAPITests {
  @Test func fetchData_asksForThePageAndBatch_andReadsNullsAndCursor() async throws {
    let client = HTTPClientStub(
      status: 200,
      body:
        #"{"data":[{"id":"ABC","userName":"Zoë","avatarURL":null,"extra":1}],"nextCursor":null}"#)

    let page = try await makeSUT(client).fetchData(page: 3, batchSize: 25, token: AccessToken("T"))

    #expect(page.data == [LikedUser(id: "abc", userName: "Zoë", avatarURL: nil)])
    #expect(page.nextCursor == nil)
    let url = try #require(client.requests.first?.url)
    #expect(url.absoluteString == "http://server.test/v1/likes?page=3&batchSize=25")
    #expect(client.requests.first?.header("Authorization") == "Bearer T")
  }

  @Test func like_andSkip_useTheContractsMethodsAndPaths() async throws {
    let client = HTTPClientStub { request in
      request.method == "POST"
        ? (
          200,
          #"{"mutualMatch":true,"item":{"id":"x","userName":"X","avatarURL":"https://a/x.png"}}"#
        ) : (204, "")
    }
    let sut = makeSUT(client)

    let outcome = try await sut.like(id: "x", token: AccessToken("T"))
    try await sut.skip(id: "y", token: AccessToken("T"))

    #expect(outcome.mutualMatch)
    #expect(
      client.requests.map { "\($0.method) \($0.url.path)" } == [
        "POST /v1/likes/x/like", "DELETE /v1/likes/y",
      ])
  }

  @Test(arguments: [
    (404, #"{"error":"not_found"}"#, LikesError.unknownPerson(id: "x") as any Error & Equatable),
    (401, "", RemoteAPIError.unauthorized),
    (500, "<html>oops</html>", RemoteAPIError.server(status: 500, code: nil, description: nil)),
    (
      200, #"{"mutualMatch":"yes"}"#,
      RemoteAPIError.invalidResponse(reason: "the like answer does not follow the contract")
    ),
  ])
  func like_mapsFailures(status: Int, body: String, expected: any Error & Equatable) async {
    do {
      _ = try await makeSUT(HTTPClientStub(status: status, body: body)).like(
        id: "x", token: AccessToken("T"))
      Issue.record("expected \(expected)")
    } catch {
      #expect("\(error)" == "\(expected)")
    }
  }

  private func makeSUT(_ client: HTTPClientStub) -> HTTPLikesRemoteAPI {
    HTTPLikesRemoteAPI(
      endpoint: APIEndpoint(baseURL: URL(string: "http://server.test/v1")!), client: client)
  }
}
