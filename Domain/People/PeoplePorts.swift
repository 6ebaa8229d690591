import Foundation

/// The backend's people endpoints (section 5 of the contract) for the user of `token`:
/// accounts to meet, and what one account does to another.
///
/// Implementations throw `RemoteAPIError`, and `PeopleError` for the answers with a meaning
/// here: an unknown id (a blocker answers as one), the account's own id, no such match.
public protocol PeopleRemoteAPI: Sendable {
  /// One page of the accounts the user may like, newest first.
  func fetchPeople(page: Int, batchSize: Int, token: AccessToken) async throws -> (
    data: [LikedUser], nextCursor: Int?
  )
  /// Likes an account: a mutual match when they had liked the user.
  func like(personID: String, token: AccessToken) async throws -> (
    mutualMatch: Bool, item: LikedUser
  )
  func pass(personID: String, token: AccessToken) async throws
  func block(personID: String, token: AccessToken) async throws
  /// Ends a mutual match: for both, with the conversation.
  func unmatch(id: String, token: AccessToken) async throws
}

/// Failures with a meaning when people meet.
public enum PeopleError: Error, Equatable, Sendable {
  /// No account has the id, or none that the user may see.
  case unknownPerson(id: String)
  /// The user's own id: nobody likes, passes or blocks themselves.
  case ownID
  /// No mutual match has the id.
  case notAMatch(id: String)
}

/// What a person did to another, as a front end reports it.
public enum PersonAction: String, Equatable, Sendable, CaseIterable {
  case like
  case pass
  case block
  case unmatch
}

/// One page of people to meet.
public struct PeoplePage: Equatable, Sendable {
  public let number: Int
  public let batchSize: Int
  public let people: [LikedUser]
  /// The page to ask for next, or nil on the last page.
  public let nextCursor: Int?

  public init(number: Int, batchSize: Int, people: [LikedUser], nextCursor: Int?) {
    self.number = number
    self.batchSize = batchSize
    self.people = people
    self.nextCursor = nextCursor
  }
}

/// What an action did: to whom (the full id, and the person as last shown when they were),
/// and for a like whether it made a match.
public struct PersonActionOutcome: Equatable, Sendable {
  public let action: PersonAction
  public let id: String
  public let person: LikedUser?
  public let mutualMatch: Bool

  public init(action: PersonAction, id: String, person: LikedUser?, mutualMatch: Bool = false) {
    self.action = action
    self.id = id
    self.person = person
    self.mutualMatch = mutualMatch
  }
}
