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

extension MessageRecord {
  /// Everybody's conversations as both stores answer `GET /messages`: the account's own,
  /// without those whose name is a match's that holds a message, then each match's in the
  /// order their first messages came.
  package static func conversations(
    own: [(name: String, messages: [MessageRecord])], shared: [MessageRecord]
  ) -> [(name: String, messages: [MessageRecord])] {
    let matchNames = Set(shared.map(\.person))
    var order: [String] = []
    var byMatch: [String: [MessageRecord]] = [:]
    for message in shared {
      if byMatch[message.person] == nil { order.append(message.person) }
      byMatch[message.person, default: []].append(message)
    }
    return own.filter { !matchNames.contains($0.name) } + order.map { ($0, byMatch[$0]!) }
  }
}
