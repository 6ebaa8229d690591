import Foundation

/// Likes back or skips somebody, by full id or a unique prefix of a cached like.
public struct RespondToLikeUseCase: Sendable {
  /// As git does with hashes: shorter prefixes collide too easily.
  public static let minimumPrefixLength = 8

  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  /// Likes back; the outcome says whether it is a mutual match.
  public func likeBack(_ idOrPrefix: String) async throws -> (mutualMatch: Bool, item: LikeItem) {
    let id = try await resolve(idOrPrefix)
    let outcome = try await environment.access.perform { [environment] token in
      try await environment.remote.like(id: id, token: token)
    }
    // The server took the answer: this machine's files failing now (a full disk) must not
    // say otherwise. Pages it cannot drop come from the server until it can.
    _ = try await environment.markCachedPagesOutOfDate()
    if outcome.mutualMatch { try await environment.rememberMatch(outcome.item) }
    return (
      outcome.mutualMatch,
      outcome.mutualMatch
        ? .mutual(outcome.item)
        : .likedYou(outcome.item, isBlurred: try await environment.isBlurred())
    )
  }

  /// Skips; returns the full id skipped, and the card as it was shown (nil for somebody
  /// never shown here, named by a full id).
  public func skip(_ idOrPrefix: String) async throws -> (id: String, item: LikeItem?) {
    let id = try await resolve(idOrPrefix)
    let shown = try await environment.shownLikes(withIDPrefix: id).first
    try await environment.access.perform { [environment] token in
      try await environment.remote.skip(id: id, token: token)
    }
    _ = try await environment.markCachedPagesOutOfDate()  // as after a like back
    guard let shown else { return (id, nil) }
    return (id, .likedYou(shown, isBlurred: try await environment.isBlurred()))
  }

  /// A full id (36 characters) as it is; a shorter one must be a unique prefix of somebody
  /// the person was shown.
  func resolve(_ idOrPrefix: String) async throws -> String {
    let prefix = idOrPrefix.lowercased()
    guard prefix.count >= Self.minimumPrefixLength else { throw LikesError.idTooShort(idOrPrefix) }
    if prefix.count == 36 { return prefix }
    let matches = try await environment.shownLikes(withIDPrefix: prefix)
    let ids = Array(Set(matches.map(\.id))).sorted()
    switch ids.count {
    case 0: throw LikesError.unknownPerson(id: idOrPrefix)
    case 1: return ids[0]
    default: throw LikesError.ambiguousID(prefix: idOrPrefix, matches: ids)
    }
  }
}
