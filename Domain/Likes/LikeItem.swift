/// A card of the notification center, as the seed has it: a person plus how to show them.
public struct LikeItem: Equatable, Sendable {
  public let id: String
  public let userName: String
  public let avatarURL: String?
  /// Blurred cards never show who it is.
  public let isBlurred: Bool
  /// Mutual matches can be looked at, not liked or skipped again.
  public let isReadOnly: Bool

  public init(id: String, userName: String, avatarURL: String?, isBlurred: Bool, isReadOnly: Bool) {
    self.id = id
    self.userName = userName
    self.avatarURL = avatarURL
    self.isBlurred = isBlurred
    self.isReadOnly = isReadOnly
  }

  /// A like from `user`, blurred unless the unblur window is open.
  public static func likedYou(_ user: LikedUser, isBlurred: Bool) -> LikeItem {
    LikeItem(
      id: user.id, userName: user.userName, avatarURL: user.avatarURL, isBlurred: isBlurred,
      isReadOnly: false)
  }

  /// A mutual match: never blurred, read-only.
  public static func mutual(_ user: LikedUser) -> LikeItem {
    LikeItem(
      id: user.id, userName: user.userName, avatarURL: user.avatarURL, isBlurred: false,
      isReadOnly: true)
  }
}
