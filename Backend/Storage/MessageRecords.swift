/// Somebody an account can have messages with, even none. Each account has its own.
struct PersonRecord: Codable, Equatable, Sendable {
  var accountID: String
  var name: String
}

/// One message of a conversation. `id` keeps the order messages came in; nil until stored.
struct MessageRecord: Codable, Equatable, Sendable {
  var id: Int64?
  var accountID: String
  var person: String
  var subject: String
  var text: String
}
