import Foundation

/// One message: a subject and its text, kept exactly as sent, and who wrote it and when,
/// where the server says (API.md section 2: always between two accounts; an invented
/// conversation may have neither).
public struct Message: Equatable, Sendable {
  public let subject: String
  public let text: String
  /// True when the signed-in account wrote it, false when the other person did; nil when
  /// the server does not say.
  public let fromMe: Bool?
  /// When it was sent; nil when the server does not say.
  public let sentAt: Date?

  public init(subject: String, text: String, fromMe: Bool? = nil, sentAt: Date? = nil) {
    self.subject = subject
    self.text = text
    self.fromMe = fromMe
    self.sentAt = sentAt
  }
}
