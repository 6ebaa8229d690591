/// An account, as every store keeps it: its id, its sign-in name, its display name and its
/// password's hash (`PasswordHasher`).
package struct AccountRecord: Codable, Equatable, Sendable {
  package var id: String
  package var username: String
  package var name: String
  package var passwordHash: String

  package init(id: String, username: String, name: String, passwordHash: String) {
    self.id = id
    self.username = username
    self.name = name
    self.passwordHash = passwordHash
  }
}
