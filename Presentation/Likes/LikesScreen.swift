import Domain
import Foundation

/// Likes as lines and as JSON: a page, the mutual matches and what `watch` sees. A blurred
/// card shows its short id only: never the name, never the avatar, in text or JSON. Every
/// text from the server goes through `TerminalText`, so no name can drive the terminal.
public enum LikesScreen {
  public struct ItemDocument: Encodable, Sendable {
    public let id: String
    @NullWhenAbsent public var userName: String?
    @NullWhenAbsent public var avatarURL: String?
    public let isBlurred: Bool
    public let isReadOnly: Bool

    public init(_ item: LikeItem) {
      id = item.id
      userName = item.isBlurred ? nil : item.userName
      avatarURL = item.isBlurred ? nil : item.avatarURL
      isBlurred = item.isBlurred
      isReadOnly = item.isReadOnly
    }
  }

  public struct PageDocument: Encodable, Sendable {
    public let page: Int
    public let batchSize: Int
    public let items: [ItemDocument]
    @NullWhenAbsent public var nextPage: Int?
    public let source: String
    /// ISO 8601, when the page came from the cache.
    @NullWhenAbsent public var fetchedAt: String?
    public let offline: Bool
    /// The cached page is known to be out of date (shown only offline).
    public let outOfDate: Bool
    /// For a page past the end of the list, the last page that holds anybody (0: nobody).
    @NullWhenAbsent public var lastPage: Int?
    @NullWhenAbsent public var unblurSecondsLeft: Int?
    public let unread: Int
  }

  public static func document(_ page: LikesPage, unblurSecondsLeft: Int?, unread: Int)
    -> PageDocument
  {
    let (source, fetchedAt, offline, outOfDate): (String, Date?, Bool, Bool) =
      switch page.source {
      case .server: ("server", nil, false, false)
      case .cache(let fetchedAt, let offline, let outOfDate):
        ("cache", fetchedAt, offline, outOfDate)
      }
    return PageDocument(
      page: page.number, batchSize: page.batchSize, items: page.items.map(ItemDocument.init),
      nextPage: page.nextCursor, source: source,
      fetchedAt: fetchedAt.map { TimeText.iso8601($0) }, offline: offline, outOfDate: outOfDate,
      lastPage: page.lastPage, unblurSecondsLeft: unblurSecondsLeft, unread: unread)
  }

  /// One card: its short id, then the name and avatar, or the blur.
  public static func itemLine(_ item: LikeItem) -> String {
    let id = TerminalText.visibleOnOneLine(LikesViewModel.shortID(item.id))
    guard !item.isBlurred else { return "  \(id)  ░░░░░░░░ (blurred)" }
    let avatar = item.avatarURL.map { "  \(TerminalText.visibleOnOneLine($0))" } ?? ""
    return "  \(id)  \(TerminalText.visibleOnOneLine(item.userName))\(avatar)"
  }

  /// The page and its footer: which items, more pages or the last, where it came from,
  /// and the blur, its hints in `words` (`app likes --page 2` at the command line,
  /// `likes 2` at the shell's prompt).
  public static func lines(
    _ page: LikesPage, unblurSecondsLeft: Int?, unread: Int, now: Date, words: CommandWords
  ) -> [String] {
    var lines: [String]
    if let positions = page.positions {
      lines = [
        "Liked you: page \(page.number), items \(positions.lowerBound)–\(positions.upperBound)"
      ]
      lines += page.items.map(itemLine)
    } else {
      lines = ["Liked you: page \(page.number) \(emptyPageText(page))"]
    }
    lines.append("")
    if let next = page.nextCursor {
      lines.append("More: \(words.likesPage(next, page.batchSize))")
    } else if let last = page.lastPage, last > 0 {
      lines.append("The last page: \(words.likesPage(last, page.batchSize))")
    } else {
      lines.append("This is the last page.")
    }
    switch page.source {
    case .server:
      lines.append("From the server, just now.")
    case .cache(let fetchedAt, let offline, let outOfDate):
      let age = ageText(now.timeIntervalSince(fetchedAt))
      let origin: String =
        switch (offline, outOfDate) {
        case (true, true):
          "Offline: the server cannot be reached; from the cache, fetched \(age) ago, and out "
            + "of date: likes have arrived or been answered since."
        case (true, false):
          "Offline: the server cannot be reached; from the cache, fetched \(age) ago."
        case (false, _): "From the cache, fetched \(age) ago (`\(words.refresh)` asks the server)."
        }
      lines.append(origin)
    }
    lines.append(
      unread == 0
        ? "Unread: none."
        : "Unread: \(unread) new \(unread == 1 ? "like" : "likes") since page 1 was last shown.")
    if let seconds = unblurSecondsLeft {
      lines.append("Unblurred: \(seconds) s left.")
    } else if page.items.contains(where: \.isBlurred) {
      lines.append("Blurred: `\(words.unblur)` shows names for \(Int(UnblurWindow.length)) s.")
    }
    return lines
  }

  /// What an empty page is: past the end, with how many pages there are, when known.
  private static func emptyPageText(_ page: LikesPage) -> String {
    switch page.lastPage {
    case nil: "is empty."
    case 0?: "is past the end: nobody has liked you yet."
    case 1?: "is past the end: there is 1 page of \(page.batchSize)."
    case let last?: "is past the end: there are \(last) pages of \(page.batchSize)."
    }
  }

  /// How old something is, in its largest whole unit. A time in the future (a clock set
  /// back since) reads as 0 s, never as a negative age.
  public static func ageText(_ seconds: TimeInterval) -> String {
    let age = max(0, seconds)
    return switch age {
    case ..<60: "\(Int(age)) s"
    case ..<3600: "\(Int(age / 60)) min"
    case ..<86400: "\(Int(age / 3600)) h"
    default: "\(Int(age / 86400)) d"
    }
  }

  /// The mutual matches, newest first, and whether they came from the cache because the
  /// server could not be reached.
  public static func mutualsLines(_ page: LikesPage, words: CommandWords) -> [String] {
    var lines =
      page.items.isEmpty
      ? ["No mutual matches yet: `\(words.likeBack)` likes somebody back."]
      : ["Mutual matches (\(page.items.count)), newest first:"] + page.items.map(itemLine)
    if page.isOffline { lines.append("Offline: the server cannot be reached; from the cache.") }
    return lines
  }

  /// What `watch` prints for a like that has just arrived.
  public static func newLikeLine(_ item: LikeItem, unread: Int) -> String {
    "New like: \(itemLine(item).trimmingCharacters(in: .whitespaces)) (\(unread) unread)"
  }

  /// A message from a match, as it arrives: who, and its subject, on one line.
  public static func newMessageLine(from user: LikedUser, _ message: Message) -> String {
    "New message from \(TerminalText.visibleOnOneLine(user.userName)): "
      + TerminalText.visibleOnOneLine(message.subject)
  }

  /// A match that ended, as it is told.
  public static func unmatchedLine(_ user: LikedUser) -> String {
    "\(TerminalText.visibleOnOneLine(user.userName)) ended your match: the conversation is gone."
  }

  /// A banner (a mutual match), on one line.
  public static func bannerLine(_ text: String) -> String {
    "🎉 \(TerminalText.visibleOnOneLine(text))"
  }

  /// What `watch` says when it stops.
  public static func watchSummary(newLikes: Int, matches: Int) -> String {
    let likes = newLikes == 1 ? "1 new like" : "\(newLikes) new likes"
    let matchText = matches == 1 ? "1 match" : "\(matches) matches"
    return "Stopped watching: \(likes), \(matchText)."
  }
}
