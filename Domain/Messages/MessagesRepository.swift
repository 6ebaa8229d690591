/// The backend's messages, as the use cases need them. Every call is made for the user
/// whose token is given.
///
/// Implementations throw `RemoteAPIError` (a 401 as `.unauthorized`) and
/// `MessagesError.noSuchPerson` for a person the server does not know.
public protocol MessagesRepository: Sendable {
  /// Everybody's messages, in no particular order.
  func loadAll(with token: AccessToken) async throws -> [UserMessages]
  func load(person name: String, with token: AccessToken) async throws -> UserMessages
  /// Sends the draft and returns the recipient's messages after it.
  func send(_ draft: MessageDraft, with token: AccessToken) async throws -> UserMessages
}

/// Failures with a meaning in the messages feature.
public enum MessagesError: Error, Equatable, Sendable {
  case noSuchPerson(String)
  case invalidDraft([MessageDraft.Issue])
  /// Only matches talk: the person is no match of the account's, and the message was not
  /// stored.
  case notAMatch(String)
  /// As `notAMatch`, to somebody this device last knew as a match: they have just ended it.
  case unmatchedYou(String)
}
