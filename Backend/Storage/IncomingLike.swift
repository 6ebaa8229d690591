/// A person who liked an account, as every store keeps them.
struct IncomingLike: Equatable, Sendable {
  let id: String
  let userName: String
  let avatarURL: String?
}
