import Contract
import Foundation

/// Section 5 of the contract: accounts meet each other. Whatever stands between two
/// accounts (a block, either way) answers as an unknown id does: a block is never told.
struct PeopleRoutes {
  let backend: APIBackend

  /// `page` and `batchSize` are within the contract's ranges: `APIRoute.parse` checked them.
  func page(_ request: APIRequest, page: Int, batchSize: Int) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    let now = backend.now()
    let start = backend.peoplePages.start(
      of: page, batchSize: batchSize, for: account.id, now: now)
    let result = try await backend.store.people(
      accountID: account.id, from: start, batchSize: batchSize)
    backend.peoplePages.served(page, batchSize: batchSize, result, for: account.id, now: now)
    return .json(
      200, bytes: LikesPageJSON.body(result.people, nextCursor: result.hasMore ? page + 1 : nil))
  }

  func like(_ request: APIRequest, id: String) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    try backend.admitLike(from: account)
    guard !TextWithoutNUL.holdsNUL(id) else { return Self.unknown(id) }
    switch try await backend.store.likePerson(id, by: account) {
    case .unknownPerson: return Self.unknown(id)
    case .ownID: return Self.own
    case .liked(let person, let mutualMatch):
      return .json(
        200, APIAnswer.LikeBack(mutualMatch: mutualMatch, item: APIAnswer.UserModel(person)))
    }
  }

  func pass(_ request: APIRequest, id: String) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    guard !TextWithoutNUL.holdsNUL(id) else { return Self.unknown(id) }
    return Self.answer(try await backend.store.passPerson(id, by: account), id: id)
  }

  func block(_ request: APIRequest, id: String) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    guard !TextWithoutNUL.holdsNUL(id) else { return Self.unknown(id) }
    return Self.answer(try await backend.store.blockPerson(id, by: account), id: id)
  }

  func unmatch(_ request: APIRequest, id: String) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    guard !TextWithoutNUL.holdsNUL(id), try await backend.store.unmatch(id, by: account) else {
      return .error(404, "not_found", "No mutual match has id \(id)")
    }
    return .noContent
  }

  private static func answer(_ outcome: PersonAnswerOutcome, id: String) -> BackendHTTPResponse {
    switch outcome {
    case .unknownPerson: unknown(id)
    case .ownID: own
    case .done: .noContent
    }
  }

  private static func unknown(_ id: String) -> BackendHTTPResponse {
    .error(404, "not_found", "Nobody has id \(id)")
  }

  private static let own = BackendHTTPResponse.error(
    422, "invalid_request", "That is your own id: you cannot like, pass or block yourself")
}
