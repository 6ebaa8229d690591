import Domain
import Foundation
import JSONTape

/// A body the messages endpoints can carry, seen as what every one of them holds: a list
/// of people with their messages. Decoding either endpoint's body gives the same type, as
/// in the seed.
protocol DecodableResponse: Decodable, Sendable {
  associatedtype Item
  var items: [Item] { get }
}

/// A message as the wire has it. Unknown fields are ignored; `fromMe` and `sentAt` (Unix
/// seconds) are read where the server gives them.
struct MessageDTO: Decodable, Sendable {
  let subject: String
  let message: String
  let fromMe: Bool?
  let sentAt: Int?

  var domainMessage: Message {
    Message(
      subject: subject, text: message, fromMe: fromMe,
      sentAt: sentAt.map { Date(timeIntervalSince1970: TimeInterval($0)) })
  }

  private enum CodingKeys: String, CodingKey {
    case subject
    case message
    case fromMe
    case sentAt
  }

  init(from decoder: any Decoder) throws {
    try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
  }

  /// The one reading of a message's fields, whichever decoder's object holds them.
  private init<Fields: KeyedDecodingContainerProtocol>(fields: Fields) throws
  where Fields.Key == CodingKeys {
    subject = try fields.decode(String.self, forKey: .subject)
    message = try fields.decode(String.self, forKey: .message)
    fromMe = try fields.decodeIfPresent(Bool.self, forKey: .fromMe)
    sentAt = try fields.decodeIfPresent(Int.self, forKey: .sentAt)
  }
}

/// Half a million messages in everybody's body: read from the tape's objects directly.
extension MessageDTO: TapeDecodable {
  init(tapeValue value: TapeValue) throws {
    try self.init(fields: value.object(keyedBy: CodingKeys.self))
  }
}

/// `GET /messages`: an object whose keys are people's names and whose values are their
/// messages.
struct AllMessagesBody: DecodableResponse {
  let items: [UserMessages]

  init(items: [UserMessages]) {
    self.items = items
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: DynamicCodingKeys.self)
    items = try container.allKeys.map { key in
      let messages = try container.decode([MessageDTO].self, forKey: key)
      return UserMessages(name: key.stringValue, messages: messages.map { $0.domainMessage })
    }
  }
}

/// `GET /messages/{name}` and `POST /messages`: `{"user": name, "message": [Message]}`.
struct UserMessagesBody: DecodableResponse {
  let items: [UserMessages]

  private enum CodingKeys: String, CodingKey {
    case user
    case message
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let user = try container.decode(String.self, forKey: .user)
    let messages = try container.decode([MessageDTO].self, forKey: .message)
    items = [UserMessages(name: user, messages: messages.map { $0.domainMessage })]
  }
}
