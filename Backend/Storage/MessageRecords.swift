/// Somebody an account can have messages with, even none. Each account has its own.
package struct PersonRecord: Codable, Equatable, Sendable {
  package var accountID: String
  package var name: String

  package init(accountID: String, name: String) {
    self.accountID = accountID
    self.name = name
  }
}

/// One message of a conversation. `id` keeps the order messages came in; nil until stored.
package struct MessageRecord: Codable, Equatable, Sendable {
  package var id: Int64?
  package var accountID: String
  package var person: String
  package var subject: String
  package var text: String

  package init(id: Int64?, accountID: String, person: String, subject: String, text: String) {
    self.id = id
    self.accountID = accountID
    self.person = person
    self.subject = subject
    self.text = text
  }
}
