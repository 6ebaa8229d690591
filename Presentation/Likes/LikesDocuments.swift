import Domain

// The `--json` documents of the likes commands (docs/json.md), beside the screen that
// writes their text.
extension LikesScreen {
  /// `app likes unblur`.
  public struct UnblurDocument: Encodable, Sendable {
    public let unblurredUntil: String
    public let secondsLeft: Int

    public init(unblurredUntil: String, secondsLeft: Int) {
      self.unblurredUntil = unblurredUntil
      self.secondsLeft = secondsLeft
    }
  }

  /// `app likes like|skip ID`.
  public struct AnswerDocument: Encodable, Sendable {
    public let action: String
    public let id: String
    @NullWhenAbsent public var name: String?
    public let mutualMatch: Bool
    public let message: String

    public init(action: String, id: String, name: String?, mutualMatch: Bool, message: String) {
      self.action = action
      self.id = id
      self.name = name
      self.mutualMatch = mutualMatch
      self.message = message
    }
  }

  /// `app likes mutuals`.
  public struct MutualsDocument: Encodable, Sendable {
    public let items: [ItemDocument]
    public let source: String
    public let offline: Bool

    public init(_ page: LikesPage) {
      items = page.items.map(ItemDocument.init)
      source = page.isOffline ? "cache" : "server"
      offline = page.isOffline
    }
  }

  /// One line of `app likes watch --json`: a new like, or a match.
  public struct WatchEventDocument: Encodable, Sendable {
    public let event: String
    @NullWhenAbsent public var item: ItemDocument?
    @NullWhenAbsent public var unread: Int?
    @NullWhenAbsent public var message: String?

    public static func newLike(_ item: LikeItem, unread: Int) -> WatchEventDocument {
      WatchEventDocument(event: "newLike", item: ItemDocument(item), unread: unread, message: nil)
    }

    public static func mutualMatch(_ text: String) -> WatchEventDocument {
      WatchEventDocument(event: "mutualMatch", item: nil, unread: nil, message: text)
    }

    private init(event: String, item: ItemDocument?, unread: Int?, message: String?) {
      self.event = event
      self.item = item
      self.unread = unread
      self.message = message
    }
  }
}
