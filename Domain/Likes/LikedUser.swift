/// Somebody in the likes feature, as the server describes them (the contract's UserModel):
/// for an account, `userName` is its username and `name` its display name; an invented
/// person has no `name`.
public struct LikedUser: Equatable, Sendable {
  public let id: String
  public let userName: String
  public let avatarURL: String?
  public let name: String?

  public init(id: String, userName: String, avatarURL: String?, name: String? = nil) {
    self.id = id
    self.userName = userName
    self.avatarURL = avatarURL
    self.name = name
  }
}
