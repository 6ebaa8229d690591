import Domain
import Foundation

/// People to meet as lines and as JSON (docs/json.md). Every text from the server goes
/// through `TerminalText`, so no name can drive the terminal.
public enum PeopleScreen {
  public struct PersonDocument: Encodable, Equatable, Sendable {
    public let id: String
    public let userName: String
    @NullWhenAbsent public var name: String?

    public init(_ user: LikedUser) {
      id = user.id
      userName = user.userName
      name = user.name
    }
  }

  /// `app people --json`.
  public struct PageDocument: Encodable, Equatable, Sendable {
    public let page: Int
    public let batchSize: Int
    public let people: [PersonDocument]
    @NullWhenAbsent public var nextPage: Int?
  }

  /// `app people like|pass|block ID --json`, `app likes unmatch ID --json`.
  public struct ActionDocument: Encodable, Equatable, Sendable {
    public let action: String
    public let id: String
    @NullWhenAbsent public var userName: String?
    public let mutualMatch: Bool
    public let message: String
  }

  public static func document(_ page: PeoplePage) -> PageDocument {
    PageDocument(
      page: page.number, batchSize: page.batchSize, people: page.people.map(PersonDocument.init),
      nextPage: page.nextCursor)
  }

  public static func document(_ outcome: PersonActionOutcome) -> ActionDocument {
    ActionDocument(
      action: outcome.action.rawValue, id: outcome.id, userName: outcome.person?.userName,
      mutualMatch: outcome.mutualMatch, message: sentence(outcome))
  }

  /// One person: the short id, the username and the name.
  public static func personLine(_ user: LikedUser) -> String {
    let id = TerminalText.visibleOnOneLine(LikesViewModel.shortID(user.id))
    let name = user.name.map { " (\(TerminalText.visibleOnOneLine($0)))" } ?? ""
    return "  \(id)  \(TerminalText.visibleOnOneLine(user.userName))\(name)"
  }

  /// The page, and how to go on, in `words` (`app people --page 2` or `people 2`).
  public static func lines(_ page: PeoplePage, words: CommandWords) -> [String] {
    guard !page.people.isEmpty else {
      return page.number == 1
        ? ["Nobody new to meet yet: nobody here that you have not liked, passed or matched."]
        : ["People: page \(page.number) is past the end."]
    }
    let first = (page.number - 1) * page.batchSize + 1
    var lines = ["People to meet, newest first: \(first)–\(first + page.people.count - 1)"]
    lines += page.people.map(personLine)
    lines.append("")
    if let next = page.nextCursor {
      lines.append("More: \(words.peoplePage(next, page.batchSize))")
    }
    lines.append("Like: `\(words.likePerson)`; pass: `\(words.passPerson)`.")
    return lines
  }

  /// What an action did, in a sentence.
  public static func sentence(_ outcome: PersonActionOutcome) -> String {
    let who = TerminalText.visibleOnOneLine(outcome.person?.userName ?? outcome.id)
    return switch outcome.action {
    case .like:
      outcome.mutualMatch
        ? "It's a match with \(who)! You can write to each other now."
        : "Liked \(who): if they like you back, it's a match."
    case .pass: "Passed \(who): you will not meet them here again."
    case .block: "Blocked \(who): you have disappeared for them."
    case .unmatch: "Ended your match with \(who): the conversation is gone for both of you."
    }
  }
}
