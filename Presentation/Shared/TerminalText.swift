/// Text from other people (names, subjects, messages) as a terminal may show it.
public enum TerminalText {
  /// The text as sent, except for control characters other than tab and newline, which are
  /// shown as escapes (`\u{1b}`): text from the server must not be able to move the cursor,
  /// clear the screen, or hide a line with a carriage return. `--json` gives the exact text.
  public static func visible(_ text: String) -> String {
    var shown = UTF8Text()
    shown.appendVisible(text, newline: "\n")
    return shown.string
  }

  /// `visible`, with newlines escaped too, for text that must stay on its line: a name in a
  /// heading or a list, a banner.
  public static func visibleOnOneLine(_ text: String) -> String {
    var shown = UTF8Text()
    shown.appendVisible(text)
    return shown.string
  }
}
