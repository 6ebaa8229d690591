/// A person who liked an account, as every store keeps them.
package struct IncomingLike: Equatable, Sendable {
  package let id: String
  package let userName: String
  package let avatarURL: String?

  package init(id: String, userName: String, avatarURL: String?) {
    self.id = id
    self.userName = userName
    self.avatarURL = avatarURL
  }
}
