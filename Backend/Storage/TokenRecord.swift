/// An issued token, known by its hash: the token itself is never kept.
package struct TokenRecord: Codable, Equatable, Sendable {
  package var tokenHash: String
  package var accountID: String
  /// Unix seconds.
  package var createdAt: Int
  /// Seconds; valid while now < createdAt + expiresIn.
  package var expiresIn: Int
  package var scope: String

  package init(tokenHash: String, accountID: String, createdAt: Int, expiresIn: Int, scope: String)
  {
    self.tokenHash = tokenHash
    self.accountID = accountID
    self.createdAt = createdAt
    self.expiresIn = expiresIn
    self.scope = scope
  }
}
