import Presentation
import Testing

@Suite(.timeLimit(.minutes(1))) struct TerminalTextTests {
  @Test(arguments: [
    ("\u{1B}[2J\u{1B}[H", "\\u{1b}[2J\\u{1b}[H", "clearing the screen"),
    ("paid\runpaid", "paid\\u{d}unpaid", "hiding a line behind a carriage return"),
    ("\u{9B}31mred", "\\u{9b}31mred", "a one-byte CSI"),
    ("bell\u{07}", "bell\\u{7}", "the bell"),
    ("del\u{7F}", "del\\u{7f}", "delete"),
    ("nul\u{0}", "nul\\u{0}", "a NUL"),
  ])
  func controlCharacters_areShownAsEscapes(text: String, shown: String, what: String) {
    #expect(TerminalText.visible(text) == shown, "\(what)")
    #expect(TerminalText.visibleOnOneLine(text) == shown, "\(what)")
  }

  @Test func tabsNewlinesAndEveryScript_areKeptAsSent() {
    let text = "Zoë 😀\tمرحبا\n日本語 — \"quoted\""

    #expect(TerminalText.visible(text) == text)
  }

  @Test func onOneLine_newlinesAreEscapedToo_butTabsStay() {
    #expect(TerminalText.visibleOnOneLine("Ann\nFake line\tx") == "Ann\\u{a}Fake line\tx")
  }
}
