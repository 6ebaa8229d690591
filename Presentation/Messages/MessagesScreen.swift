import Domain
import Foundation

/// Messages as text: a person per heading, a message per bullet, its text indented below
/// so that a message with newlines still reads as one item. Everything from the server goes
/// through `UTF8Text.appendVisible`, so no message can drive the terminal.
///
/// Everybody's messages can be tens of megabytes, so the screens are written into bytes in
/// one pass and handed out in chunks (`MessagesScreen+Streaming.swift`): the time is linear
/// in the text, and no second copy of it is ever held.
public enum MessagesScreen {
  public struct PersonDocument: Encodable, Equatable, Sendable {
    public let name: String
    public let messages: [MessageDocument]
  }

  /// `fromMe` and `sentAt` are null where the server does not say; `sentAt` is ISO 8601
  /// with the local offset (`TimeText.iso8601`).
  public struct MessageDocument: Encodable, Equatable, Sendable {
    public let subject: String
    public let message: String
    public let fromMe: Bool?
    public let sentAt: String?

    /// Every key written, a null too: a script reads one shape whatever the server knows.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(subject, forKey: .subject)
      try container.encode(message, forKey: .message)
      try container.encode(fromMe, forKey: .fromMe)
      try container.encode(sentAt, forKey: .sentAt)
    }

    private enum CodingKeys: String, CodingKey { case subject, message, fromMe, sentAt }
  }

  /// The exact text, for `--json`: JSON escapes what a terminal must not see.
  public static func document(_ person: UserMessages) -> PersonDocument {
    PersonDocument(name: person.name, messages: person.messages.map(document))
  }

  /// One message, for `--json`.
  public static func document(_ message: Message) -> MessageDocument {
    MessageDocument(
      subject: message.subject, message: message.text, fromMe: message.fromMe,
      sentAt: message.sentAt.map { TimeText.iso8601($0) })
  }

  /// One person's messages as text, without a final newline.
  public static func text(_ person: UserMessages) -> String {
    var text = UTF8Text()
    appendText(of: person, to: &text)
    return text.string
  }

  /// Said on stderr after a message was sent.
  public static func sentNotice(to person: UserMessages) -> String {
    "Sent to \(TerminalText.visibleOnOneLine(person.name))."
  }

  static func appendText(of person: UserMessages, to text: inout UTF8Text) {
    text.appendVisible(person.name)
    text.append(" — ")
    let count =
      switch person.messages.count {
      case 0: "no messages"
      case 1: "1 message"
      default: "\(person.messages.count) messages"
      }
    text.append(count)
    for message in person.messages {
      text.append("\n  • ")
      text.appendVisible(message.subject, newline: "\n    ")
      appendAuthorAndTime(of: message, from: person.name, to: &text)
      text.append("\n    ")
      text.appendVisible(message.text, newline: "\n    ")
    }
  }
}

extension MessagesScreen {
  /// ` — you, 2026-12-05 17:45:56` after the subject: who wrote it and when, in the local
  /// time zone, where the server says; nothing where it says neither.
  static func appendAuthorAndTime(
    of message: Message, from person: String, to text: inout UTF8Text
  ) {
    guard message.fromMe != nil || message.sentAt != nil else { return }
    text.append(" — ")
    if let fromMe = message.fromMe {
      if fromMe { text.append("you") } else { text.appendVisible(person) }
      if message.sentAt != nil { text.append(", ") }
    }
    if let sentAt = message.sentAt { text.append(TimeText.dateAndClock(sentAt)) }
  }

  /// `app messages send --json`: sent, and the recipient's messages after it.
  public struct SentDocument: Encodable, Sendable {
    public let sent = true
    public let to: PersonDocument

    public init(to person: PersonDocument) {
      self.to = person
    }
  }
}
