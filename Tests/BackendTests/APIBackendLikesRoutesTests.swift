import BackendBridge
import Data
import Domain
import Foundation
import TestSupport
import Testing

@testable import Backend

/// The embedded backend's likes routes, through the app's own HTTP adapter.
@Suite(.timeLimit(.minutes(1))) struct APIBackendLikesRoutesTests {
  @Test func pages_walkThe50SeededLikes_withCursors() async throws {
    let (api, token, _) = try await makeSUT()

    var ids: [String] = []
    var page: Int? = 1
    var pages = 0
    while let number = page {
      let answer = try await api.fetchData(page: number, batchSize: 15, token: token)
      ids += answer.data.map(\.id)
      page = answer.nextCursor
      pages += 1
    }

    #expect(pages == 4)
    #expect(ids.count == 50)
    #expect(Set(ids).count == 50)
    #expect(try await api.fetchData(page: 9, batchSize: 15, token: token).data.isEmpty)
  }

  /// `(page - 1) * batchSize` once overflowed and crashed the server.
  @Test(arguments: [Int.max, Int.max / 100 + 2, 1_000_000_000_000_000_000])
  func aPagePastAnyPossibleList_isEmpty_notACrash(page: Int) async throws {
    let (api, token, _) = try await makeSUT()

    let answer = try await api.fetchData(page: page, batchSize: 100, token: token)

    #expect(answer.data.isEmpty)
    #expect(answer.nextCursor == nil)
  }

  @Test func aPageNumberTooLongForAnInteger_is422() async throws {
    let (_, token, backend) = try await makeSUT()
    let answer = await backend.handle(
      BackendHTTPRequest(
        method: "GET", pathSegments: ["likes"],
        query: ["page": "99999999999999999999", "batchSize": "10"],
        headers: ["Authorization": "Bearer \(token.value)"]))
    #expect(answer.status == 422)
  }

  @Test(arguments: [("0", "10"), ("1", "0"), ("1", "101"), ("x", "10"), ("1", "")])
  func badPagingIs422(page: String, batchSize: String) async throws {
    let (_, token, backend) = try await makeSUT()
    let answer = await backend.handle(
      BackendHTTPRequest(
        method: "GET", pathSegments: ["likes"], query: ["page": page, "batchSize": batchSize],
        headers: ["Authorization": "Bearer \(token.value)"]))
    #expect(answer.status == 422)
  }

  @Test func likingBack_isAMatch_thatLeavesLikesForMutuals_newestFirst() async throws {
    let (api, token, _) = try await makeSUT()
    let first = try await api.fetchData(page: 1, batchSize: 3, token: token).data

    let one = try await api.like(id: first[0].id, token: token)
    let two = try await api.like(id: first[1].id.uppercased(), token: token)

    #expect(one.mutualMatch && two.mutualMatch)
    #expect(one.item == first[0])
    #expect(try await api.fetchMutuals(token: token).map(\.id) == [first[1].id, first[0].id])
    #expect(try await api.fetchData(page: 1, batchSize: 3, token: token).data.first == first[2])
    await #expect(throws: LikesError.unknownPerson(id: first[0].id)) {
      try await api.like(id: first[0].id, token: token)
    }
  }

  @Test func skipping_removesOnce() async throws {
    let (api, token, _) = try await makeSUT()
    let first = try await api.fetchData(page: 1, batchSize: 1, token: token).data[0]

    try await api.skip(id: first.id, token: token)

    await #expect(throws: LikesError.unknownPerson(id: first.id)) {
      try await api.skip(id: first.id, token: token)
    }
    #expect(try await api.fetchMutuals(token: token).isEmpty)
  }

  @Test func everyAccountHasItsOwnLikes() async throws {
    let (api, demoToken, backend) = try await makeSUT()
    let endpoint = APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL)
    let auth = HTTPAuthRemoteAPI(
      endpoint: endpoint, client: EmbeddedBackendHTTPClient(backend: backend))
    let otherToken = try await auth.signUp(
      NewAccount(username: "other", name: "Other", password: "long-enough"))

    let demo = try await api.fetchData(page: 1, batchSize: 100, token: demoToken).data.map(\.id)
    let other = try await api.fetchData(page: 1, batchSize: 100, token: otherToken).data.map(\.id)

    #expect(Set(demo).isDisjoint(with: other))
    await #expect(throws: LikesError.unknownPerson(id: demo[0])) {
      try await api.skip(id: demo[0], token: otherToken)
    }
  }

  @Test func events_bringNewLikesAsTimePasses_andMatches_eachOnce() async throws {
    let now = TestNow()
    let (api, token, _) = try await makeSUT(now: now)
    let start = try await api.fetchEvents(after: Int.max, wait: 0, token: token)
    #expect(start.events.isEmpty)

    now.advance(by: 16)
    let firstBatch = try await api.fetchEvents(after: start.last, wait: 0, token: token)
    guard case .likedYouInserted(let newcomer) = try #require(firstBatch.events.first?.event) else {
      Issue.record("expected a new like, got \(firstBatch.events)")
      return
    }
    #expect(firstBatch.events.count == 1, "one like per 10 to 15 s")
    #expect(
      try await api.fetchData(page: 1, batchSize: 1, token: token).data == [newcomer],
      "newest first")

    _ = try await api.like(id: newcomer.id, token: token)
    let secondBatch = try await api.fetchEvents(after: firstBatch.last, wait: 0, token: token)
    #expect(secondBatch.events.map(\.event) == [.mutualMatch(newcomer)])
    #expect(secondBatch.events.map(\.seq) == [secondBatch.last], "numbered as it is resumed")
    #expect(
      try await api.fetchEvents(after: secondBatch.last, wait: 0, token: token).events.isEmpty,
      "nothing twice")
  }

  private func makeSUT(now: TestNow = TestNow()) async throws -> (
    HTTPLikesRemoteAPI, AccessToken, APIBackend
  ) {
    let backend = try APIBackend.inMemory(
      now: { now.date },
      randomBytes: { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
      }, clock: ContinuousClock())
    let client = EmbeddedBackendHTTPClient(backend: backend)
    let endpoint = APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL)
    let token = try await HTTPAuthRemoteAPI(endpoint: endpoint, client: client)
      .signIn(username: "demo", password: "demo-password")
    return (HTTPLikesRemoteAPI(endpoint: endpoint, client: client), token, backend)
  }
}
