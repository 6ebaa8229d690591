import Domain
import Foundation

/// `app watch`: everything as it happens, likes, matches, messages and ended matches, as
/// lines, or one JSON object a line with its `type` (docs/json.md). `app likes watch` keeps
/// its own lines (`LikesScreen`).
public enum WatchScreen {
  /// One line of `app watch --json`: `type` is the contract's event type; the keys of other
  /// types are null, so that every line has one shape.
  public struct EventDocument: Encodable, Sendable {
    public let type: String
    /// `likedYouInserted`: the card, blurred as the list is.
    public var item: LikesScreen.ItemDocument?
    public var unread: Int?
    /// `mutualMatch`: the match's id and its announcement.
    public var id: String?
    public var text: String?
    /// `message` (who wrote) and `unmatched` (who ended it).
    public var person: PeopleScreen.PersonDocument?
    public var message: MessagesScreen.MessageDocument?

    init(type: String) { self.type = type }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(type, forKey: .type)
      try container.encode(item, forKey: .item)
      try container.encode(unread, forKey: .unread)
      try container.encode(id, forKey: .id)
      try container.encode(text, forKey: .text)
      try container.encode(person, forKey: .person)
      try container.encode(message, forKey: .message)
    }

    private enum CodingKeys: String, CodingKey {
      case type, item, unread, id, text, person, message
    }
  }

  /// The update's JSON line; nil for news of the connection, which goes to stderr.
  public static func document(_ update: LikesWatchViewModel.Update) -> EventDocument? {
    switch update {
    case .newLike(let item, let unread):
      var document = EventDocument(type: "likedYouInserted")
      document.item = LikesScreen.ItemDocument(item)
      document.unread = unread
      return document
    case .match(let text, let id):
      var document = EventDocument(type: "mutualMatch")
      document.id = id
      document.text = text
      return document
    case .message(let user, let message):
      var document = EventDocument(type: "message")
      document.person = PeopleScreen.PersonDocument(user)
      document.message = MessagesScreen.document(message)
      return document
    case .unmatched(let user):
      var document = EventDocument(type: "unmatched")
      document.person = PeopleScreen.PersonDocument(user)
      return document
    case .unreadChanged, .interrupted, .resumed, .notKept:
      return nil
    }
  }

  /// The update's line of text; nil for news of the connection.
  public static func line(_ update: LikesWatchViewModel.Update) -> String? {
    switch update {
    case .newLike(let item, let unread): LikesScreen.newLikeLine(item, unread: unread)
    case .match(let text, _): LikesScreen.bannerLine(text)
    case .message(let user, let message): LikesScreen.newMessageLine(from: user, message)
    case .unmatched(let user): LikesScreen.unmatchedLine(user)
    case .unreadChanged, .interrupted, .resumed, .notKept: nil
    }
  }

  /// What `app watch` says when it stops.
  public static func summary(_ state: LikesWatchViewModel.State) -> String {
    func count(_ number: Int, _ one: String, _ many: String) -> String {
      "\(number) \(number == 1 ? one : many)"
    }
    return "Stopped watching: \(count(state.newLikes, "new like", "new likes")), "
      + "\(count(state.matches, "match", "matches")), "
      + "\(count(state.messages, "message", "messages")), "
      + "\(count(state.unmatches, "match ended", "matches ended"))."
  }
}
