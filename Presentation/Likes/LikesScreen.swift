import Domain
import Foundation
import Presentation

/// A page of likes as lines and as JSON. A blurred card shows its short id only: never the
/// name, never the avatar, in text or JSON.
enum LikesScreen {
  struct ItemDocument: Encodable {
    let id: String
    let userName: String?
    let avatarURL: String?
    let isBlurred: Bool
    let isReadOnly: Bool

    init(_ item: LikeItem) {
      id = item.id
      userName = item.isBlurred ? nil : item.userName
      avatarURL = item.isBlurred ? nil : item.avatarURL
      isBlurred = item.isBlurred
      isReadOnly = item.isReadOnly
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(userName, forKey: .userName)
      try container.encode(avatarURL, forKey: .avatarURL)
      try container.encode(isBlurred, forKey: .isBlurred)
      try container.encode(isReadOnly, forKey: .isReadOnly)
    }

    private enum CodingKeys: String, CodingKey {
      case id, userName, avatarURL, isBlurred, isReadOnly
    }
  }

  struct PageDocument: Encodable {
    let page: Int
    let batchSize: Int
    let items: [ItemDocument]
    let nextPage: Int?
    let source: String
    let fetchedAt: Date?
    let offline: Bool
    let unblurSecondsLeft: Int?
    let unread: Int

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(page, forKey: .page)
      try container.encode(batchSize, forKey: .batchSize)
      try container.encode(items, forKey: .items)
      try container.encode(nextPage, forKey: .nextPage)
      try container.encode(source, forKey: .source)
      try container.encode(
        fetchedAt.map { ISO8601DateFormatter().string(from: $0) }, forKey: .fetchedAt)
      try container.encode(offline, forKey: .offline)
      try container.encode(unblurSecondsLeft, forKey: .unblurSecondsLeft)
      try container.encode(unread, forKey: .unread)
    }

    private enum CodingKeys: String, CodingKey {
      case page, batchSize, items, nextPage, source, fetchedAt, offline, unblurSecondsLeft, unread
    }
  }

  static func document(_ page: LikesPage, unblurSecondsLeft: Int?, unread: Int) -> PageDocument {
    let (source, fetchedAt, offline): (String, Date?, Bool) =
      switch page.source {
      case .server: ("server", nil, false)
      case .cache(let fetchedAt, let offline): ("cache", fetchedAt, offline)
      }
    return PageDocument(
      page: page.number, batchSize: page.batchSize, items: page.items.map(ItemDocument.init),
      nextPage: page.nextCursor, source: source, fetchedAt: fetchedAt, offline: offline,
      unblurSecondsLeft: unblurSecondsLeft, unread: unread)
  }

  static func itemLine(_ item: LikeItem) -> String {
    let id = LikesViewModel.shortID(item.id)
    guard !item.isBlurred else { return "  \(id)  ░░░░░░░░ (blurred)" }
    let avatar = item.avatarURL.map { "  \($0)" } ?? ""
    return "  \(id)  \(MessagesScreen.visible(item.userName))\(avatar)"
  }

  /// The page and its footer: which items, more pages or the last, where it came from,
  /// and the blur.
  static func lines(
    _ page: LikesPage, unblurSecondsLeft: Int?, unread: Int, now: Date, nextCommand: String
  ) -> [String] {
    var lines: [String]
    if let positions = page.positions {
      lines = [
        "Liked you: page \(page.number), items \(positions.lowerBound)–\(positions.upperBound)"
      ]
      lines += page.items.map(itemLine)
    } else {
      lines = ["Liked you: page \(page.number) is empty."]
    }
    lines.append("")
    if let next = page.nextCursor {
      lines.append("More: \(nextCommand) --page \(next)")
    } else {
      lines.append("This is the last page.")
    }
    switch page.source {
    case .server:
      lines.append("From the server, just now.")
    case .cache(let fetchedAt, let offline):
      let age = ageText(now.timeIntervalSince(fetchedAt))
      lines.append(
        offline
          ? "Offline: the server cannot be reached; from the cache, fetched \(age) ago."
          : "From the cache, fetched \(age) ago (--refresh asks the server).")
    }
    lines.append(
      unread == 0
        ? "Unread: none."
        : "Unread: \(unread) new \(unread == 1 ? "like" : "likes") since page 1 was last shown.")
    if let seconds = unblurSecondsLeft {
      lines.append("Unblurred: \(seconds) s left.")
    } else if page.items.contains(where: \.isBlurred) {
      lines.append("Blurred: `app likes unblur` shows names for \(Int(UnblurWindow.length)) s.")
    }
    return lines
  }

  static func ageText(_ seconds: TimeInterval) -> String {
    switch max(0, seconds) {
    case ..<60: "\(Int(seconds)) s"
    case ..<3600: "\(Int(seconds / 60)) min"
    case ..<86400: "\(Int(seconds / 3600)) h"
    default: "\(Int(seconds / 86400)) d"
    }
  }
}
