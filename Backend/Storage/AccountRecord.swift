/// An account, as every store keeps it: its id, its sign-in name, its display name and its
/// password's hash (`PasswordHasher`).
struct AccountRecord: Codable, Equatable, Sendable {
  var id: String
  var username: String
  var name: String
  var passwordHash: String
}
