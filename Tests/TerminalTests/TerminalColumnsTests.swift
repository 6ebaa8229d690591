import Testing

@testable import Terminal

/// The width of a prompt on screen, which tells the editor on which row the cursor stands
/// once a line wraps: a wrong width clears the wrong rows after a resize or a banner.
@Suite(.timeLimit(.minutes(1))) struct TerminalColumnsTests {
  @Test(arguments: [
    ("ana> ", 5),
    ("日本語> ", 8),
    ("👍 ", 3),
    ("e\u{301}", 1),
    ("", 0),
  ])
  func aPrompt_takesTheColumnsATerminalGivesIt(text: String, columns: Int) {
    #expect(TerminalColumns.of(text) == columns)
  }
}
