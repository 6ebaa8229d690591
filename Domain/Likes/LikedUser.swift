/// Somebody in the likes feature, as the server describes them (the contract's UserModel).
public struct LikedUser: Equatable, Sendable {
  public let id: String
  public let userName: String
  public let avatarURL: String?

  public init(id: String, userName: String, avatarURL: String?) {
    self.id = id
    self.userName = userName
    self.avatarURL = avatarURL
  }
}
