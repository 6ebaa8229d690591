import Foundation

/// A message being written to somebody.
public struct MessageDraft: Equatable, Sendable {
  public let recipient: String
  public let subject: String
  public let text: String

  public init(recipient: String, subject: String, text: String) {
    self.recipient = recipient
    self.subject = subject
    self.text = text
  }

  public enum Issue: Equatable, Sendable, CaseIterable {
    case recipientMissing
    case subjectMissing
    case textMissing
  }

  /// What keeps the draft from being sent; blank (only white space) counts as missing.
  public var issues: [Issue] {
    var issues: [Issue] = []
    if Self.isBlank(recipient) { issues.append(.recipientMissing) }
    if Self.isBlank(subject) { issues.append(.subjectMissing) }
    if Self.isBlank(text) { issues.append(.textMissing) }
    return issues
  }

  /// Stops at the first visible character. (Not `trimmingCharacters`: on Linux it copies
  /// the whole text through `NSString`, seconds for a message of 10 MB.)
  private static func isBlank(_ value: String) -> Bool {
    value.unicodeScalars.allSatisfy(CharacterSet.whitespacesAndNewlines.contains)
  }
}
