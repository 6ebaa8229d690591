import Domain

/// Messages as lines: a person per heading, a message per bullet, its text indented below
/// so that a message with newlines still reads as one item. Everything from the server goes
/// through `TerminalText`, so no message can drive the terminal.
public enum MessagesScreen {
  public struct PersonDocument: Encodable, Equatable, Sendable {
    public let name: String
    public let messages: [MessageDocument]
  }

  public struct MessageDocument: Encodable, Equatable, Sendable {
    public let subject: String
    public let message: String
  }

  /// The exact text, for `--json`: JSON escapes what a terminal must not see.
  public static func document(_ person: UserMessages) -> PersonDocument {
    PersonDocument(
      name: person.name,
      messages: person.messages.map { MessageDocument(subject: $0.subject, message: $0.text) })
  }

  public static func lines(_ person: UserMessages) -> [String] {
    let count =
      switch person.messages.count {
      case 0: "no messages"
      case 1: "1 message"
      default: "\(person.messages.count) messages"
      }
    var lines = ["\(TerminalText.visibleOnOneLine(person.name)) — \(count)"]
    for message in person.messages {
      lines.append(
        contentsOf: indent(TerminalText.visible(message.subject), first: "  • ", rest: "    "))
      lines.append(
        contentsOf: indent(TerminalText.visible(message.text), first: "    ", rest: "    "))
    }
    return lines
  }

  /// Said on stderr after a message was sent.
  public static func sentNotice(to person: UserMessages) -> String {
    "Sent to \(TerminalText.visibleOnOneLine(person.name))."
  }

  private static func indent(_ text: String, first: String, rest: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
      (index == 0 ? first : rest) + line
    }
  }
}
