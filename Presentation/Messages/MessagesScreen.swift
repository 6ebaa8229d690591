import Domain
import Foundation

/// Messages as lines: a person per heading, a message per bullet, its text indented below
/// so that a message with newlines still reads as one item.
enum MessagesScreen {
  struct PersonDocument: Encodable {
    let name: String
    let messages: [MessageDocument]
  }

  struct MessageDocument: Encodable {
    let subject: String
    let message: String
  }

  static func document(_ person: UserMessages) -> PersonDocument {
    PersonDocument(
      name: person.name,
      messages: person.messages.map { MessageDocument(subject: $0.subject, message: $0.text) })
  }

  static func lines(_ person: UserMessages) -> [String] {
    let count =
      switch person.messages.count {
      case 0: "no messages"
      case 1: "1 message"
      default: "\(person.messages.count) messages"
      }
    var lines = ["\(visible(person.name)) — \(count)"]
    for message in person.messages {
      lines.append(contentsOf: indent(visible(message.subject), first: "  • ", rest: "    "))
      lines.append(contentsOf: indent(visible(message.text), first: "    ", rest: "    "))
    }
    return lines
  }

  private static func indent(_ text: String, first: String, rest: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
      (index == 0 ? first : rest) + line
    }
  }

  /// The text as sent, except for control characters other than tab and newline, which are
  /// shown as escapes: a message must not be able to move the cursor, clear the screen or
  /// hide a line with a carriage return. `--json` gives the exact text.
  static func visible(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A: result.unicodeScalars.append(scalar)
      case 0x00..<0x20, 0x7F, 0x80..<0xA0: result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
