import Foundation

/// The backend's likes endpoints (section 3 of the contract) for the user of `token`.
///
/// Implementations throw `RemoteAPIError`; an unknown id is `LikesError.unknownPerson`.
public protocol LikesRemoteAPI: Sendable {
  /// The seed's `fetchData(page:batchSize:)`: one page of people who liked you, newest first.
  func fetchData(page: Int, batchSize: Int, token: AccessToken) async throws -> (
    data: [LikedUser], nextCursor: Int?
  )
  /// Likes back. Liking somebody who liked you is always a mutual match.
  func like(id: String, token: AccessToken) async throws -> (mutualMatch: Bool, item: LikedUser)
  func skip(id: String, token: AccessToken) async throws
  /// Mutual matches, newest first.
  func fetchMutuals(token: AccessToken) async throws -> [LikedUser]
}
