/// A person as every store keeps them: somebody who liked an account, a match, somebody to
/// meet. An account met here has its id, its username as `userName` and its display name as
/// `name`; a person the demo invents has no `name`.
package struct IncomingLike: Equatable, Sendable {
  package let id: String
  package let userName: String
  package let avatarURL: String?
  package let name: String?

  package init(id: String, userName: String, avatarURL: String?, name: String? = nil) {
    self.id = id
    self.userName = userName
    self.avatarURL = avatarURL
    self.name = name
  }
}

extension AccountRecord {
  /// The account as the people who meet it see it.
  package var asPerson: IncomingLike {
    IncomingLike(id: id, userName: username, avatarURL: nil, name: name)
  }
}
