/// Text from other people (names, subjects, messages) as a terminal may show it.
public enum TerminalText {
  /// The text as sent, except for control characters other than tab and newline, which are
  /// shown as escapes (`\u{1b}`): text from the server must not be able to move the cursor,
  /// clear the screen, or hide a line with a carriage return. `--json` gives the exact text.
  public static func visible(_ text: String) -> String {
    escaped(text, keepingNewlines: true)
  }

  /// `visible`, with newlines escaped too, for text that must stay on its line: a name in a
  /// heading or a list, a banner.
  public static func visibleOnOneLine(_ text: String) -> String {
    escaped(text, keepingNewlines: false)
  }

  private static func escaped(_ text: String, keepingNewlines: Bool) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09: result.unicodeScalars.append(scalar)
      case 0x0A where keepingNewlines: result.unicodeScalars.append(scalar)
      // C0 controls, DEL and the C1 controls (0x9B is a one-byte CSI on some terminals).
      case 0x00..<0x20, 0x7F, 0x80..<0xA0: result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
