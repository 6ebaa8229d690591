import Foundation

/// People to meet, and what the user does to them: like, pass, block, and unmatch a match.
/// Ids are typed as likes' are: whole, or a unique prefix of 8 or more characters of
/// somebody shown on this machine (a page of people or of likes, the mutuals, a watch).
public struct MeetPeopleUseCase: Sendable {
  private let likes: LikesEnvironment
  private let remote: any PeopleRemoteAPI

  public init(likes: LikesEnvironment, remote: any PeopleRemoteAPI) {
    self.likes = likes
    self.remote = remote
  }

  /// One page of people, remembered as shown so that their ids can be typed back.
  public func page(_ number: Int, batchSize: Int) async throws -> PeoplePage {
    let found = try await likes.access.perform { [remote] token in
      try await remote.fetchPeople(page: number, batchSize: batchSize, token: token)
    }
    // Kept for prefixes; a machine that cannot keep them still shows the page, and this run
    // remembers them (`LikesEnvironment.rememberShown`).
    _ = try await likes.rememberShown(found.data)
    return PeoplePage(
      number: number, batchSize: batchSize, people: found.data, nextCursor: found.nextCursor)
  }

  public func perform(_ action: PersonAction, on idOrPrefix: String) async throws
    -> PersonActionOutcome
  {
    let id: String
    do {
      id = try await RespondToLikeUseCase(likes).resolve(idOrPrefix)
    } catch LikesError.unknownPerson {
      // Nobody shown here has that prefix: no person, rather than no like waiting.
      throw action == .unmatch
        ? PeopleError.notAMatch(id: idOrPrefix) : PeopleError.unknownPerson(id: idOrPrefix)
    }
    let shown = try await likes.shownLikes(withIDPrefix: id).first
    let remote = remote
    var outcome = PersonActionOutcome(action: action, id: id, person: shown)
    switch action {
    case .like:
      let answer = try await likes.access.perform { token in
        try await remote.like(personID: id, token: token)
      }
      outcome = PersonActionOutcome(
        action: action, id: id, person: answer.item, mutualMatch: answer.mutualMatch)
      if answer.mutualMatch { try await likes.rememberMatch(answer.item) }
    case .pass:
      try await likes.access.perform { token in try await remote.pass(personID: id, token: token) }
    case .block:
      try await likes.access.perform { token in try await remote.block(personID: id, token: token) }
    case .unmatch:
      try await likes.access.perform { token in try await remote.unmatch(id: id, token: token) }
      try? await dropMutual(id)
    }
    // Their like may have left the list (a match, a pass, a block): the pages shift.
    _ = try await likes.markCachedPagesOutOfDate()
    return outcome
  }

  /// The cached mutuals without the match just ended, so that offline they do not stand.
  private func dropMutual(_ id: String) async throws {
    guard let cached = try await likes.cache.mutuals() else { return }
    try await likes.cache.storeMutuals(
      CachedLikesPage(
        users: cached.users.filter { $0.id != id }, nextCursor: nil, fetchedAt: cached.fetchedAt))
  }
}
