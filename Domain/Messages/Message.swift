/// One message: a subject and its text, kept exactly as sent.
public struct Message: Equatable, Sendable {
  public let subject: String
  public let text: String

  public init(subject: String, text: String) {
    self.subject = subject
    self.text = text
  }
}
