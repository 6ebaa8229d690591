import Foundation

/// Section 3 of the contract: people who liked you, liking back, skipping, mutuals.
/// Every account starts with `seededLikes` likes, made the first time it asks.
struct LikesRoutes: BackendRoutes {
  static let seededLikes = 50

  let backend: EmbeddedBackend

  func respond(to request: BackendHTTPRequest) async throws -> BackendHTTPResponse? {
    let path = request.pathSegments
    switch (request.method, path.count, path.first) {
    case ("GET", 1, "likes"): return try page(request)
    case ("POST", 3, "likes") where path[2] == "like": return try likeBack(request, id: path[1])
    case ("DELETE", 2, "likes"): return try skip(request, id: path[1])
    case ("GET", 1, "mutuals"): return try mutuals(request)
    default: return nil
    }
  }

  private struct UserModel: Encodable {
    let id: String
    let userName: String
    let avatarURL: String?

    init(_ like: IncomingLike) {
      id = like.id
      userName = like.userName
      avatarURL = like.avatarURL
    }

    // The contract's `avatarURL` is "String or null": write the null.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(userName, forKey: .userName)
      try container.encode(avatarURL, forKey: .avatarURL)
    }

    private enum CodingKeys: String, CodingKey { case id, userName, avatarURL }
  }

  private struct PageBody: Encodable {
    let data: [UserModel]
    let nextCursor: Int?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(data, forKey: .data)
      try container.encode(nextCursor, forKey: .nextCursor)
    }

    private enum CodingKeys: String, CodingKey { case data, nextCursor }
  }

  private struct LikeBody: Encodable {
    let mutualMatch: Bool
    let item: UserModel
  }

  private struct ListBody: Encodable {
    let data: [UserModel]
  }

  private func page(_ request: BackendHTTPRequest) throws -> BackendHTTPResponse {
    let account = try backend.authenticatedAccount(request)
    guard let page = request.query["page"].flatMap(Int.init), page >= 1 else {
      return .error(422, "invalid_request", "page must be a whole number from 1")
    }
    guard let batchSize = request.query["batchSize"].flatMap(Int.init),
      (1...100).contains(batchSize)
    else {
      return .error(422, "invalid_request", "batchSize must be a whole number from 1 to 100")
    }
    try seed(account)
    let result = try backend.database.pendingLikes(
      accountID: account.id, page: page, batchSize: batchSize)
    return .json(
      200,
      PageBody(data: result.likes.map(UserModel.init), nextCursor: result.hasMore ? page + 1 : nil))
  }

  private func likeBack(_ request: BackendHTTPRequest, id: String) throws -> BackendHTTPResponse {
    let account = try backend.authenticatedAccount(request)
    try seed(account)
    guard let like = try backend.database.matchLike(id: id, accountID: account.id) else {
      return .error(404, "not_found", "Nobody with id \(id) is waiting for an answer")
    }
    return .json(200, LikeBody(mutualMatch: true, item: UserModel(like)))
  }

  private func skip(_ request: BackendHTTPRequest, id: String) throws -> BackendHTTPResponse {
    let account = try backend.authenticatedAccount(request)
    try seed(account)
    guard try backend.database.skipLike(id: id, accountID: account.id) else {
      return .error(404, "not_found", "Nobody with id \(id) is waiting for an answer")
    }
    return .noContent
  }

  private func mutuals(_ request: BackendHTTPRequest) throws -> BackendHTTPResponse {
    let account = try backend.authenticatedAccount(request)
    try seed(account)
    return .json(
      200, ListBody(data: try backend.database.mutuals(accountID: account.id).map(UserModel.init)))
  }

  private func seed(_ account: AccountRecord) throws {
    try backend.database.seedLikesIfNeeded(accountID: account.id) {
      (0..<Self.seededLikes).map { index in
        let name = Self.names[index % Self.names.count]
        return IncomingLike(
          id: backend.makeID(), userName: "\(name) \(Character(UnicodeScalar(65 + index % 26)!)).",
          avatarURL: index % 5 == 0 ? nil : "https://avatars.example/\(index).png")
      }
    }
  }

  private static let names = [
    "Ava", "Liam", "Zoë", "Noah", "Mia", "Élodie", "Kenji", "Amara", "Mateo", "Sofía", "Yuki",
    "Oliver", "Aisha",
    "Lucas", "Ингрид", "Chen", "Priya", "Jonas", "Leila", "Hiro", "Nora", "Omar", "Freya", "Tomás",
    "Anya",
  ]
}
