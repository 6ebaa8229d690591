/// Somebody an account can have messages with, even none: a person the demo invented, or
/// one the account wrote to while it was a match that is no account here. Each account has
/// its own.
package struct PersonRecord: Codable, Equatable, Sendable {
  package var accountID: String
  package var name: String

  package init(accountID: String, name: String) {
    self.accountID = accountID
    self.name = name
  }
}

/// One message of a conversation, as the account `accountID` reads it. `id` keeps the order
/// messages came in; nil until stored. `fromMe` and `sentAt` (Unix seconds) are known for
/// every message written since section 5, and unknown for the demo's seeded ones.
package struct MessageRecord: Codable, Equatable, Sendable {
  package var id: Int64?
  package var accountID: String
  package var person: String
  package var subject: String
  package var text: String
  package var fromMe: Bool?
  package var sentAt: Int?

  package init(
    id: Int64?, accountID: String, person: String, subject: String, text: String,
    fromMe: Bool? = nil, sentAt: Int? = nil
  ) {
    self.id = id
    self.accountID = accountID
    self.person = person
    self.subject = subject
    self.text = text
    self.fromMe = fromMe
    self.sentAt = sentAt
  }
}
