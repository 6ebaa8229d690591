/// An issued token, known by its hash: the token itself is never kept.
struct TokenRecord: Codable, Equatable, Sendable {
  var tokenHash: String
  var accountID: String
  /// Unix seconds.
  var createdAt: Int
  /// Seconds; valid while now < createdAt + expiresIn.
  var expiresIn: Int
  var scope: String
}
