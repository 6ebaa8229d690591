import Presentation
import TestSupport
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

  /// The rule as the scalars say it, the way it was first written: the byte-level
  /// implementation must agree with it on any text.
  private static func reference(_ text: String, keepingNewlines: Bool) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09: result.unicodeScalars.append(scalar)
      case 0x0A where keepingNewlines: result.unicodeScalars.append(scalar)
      case 0x00..<0x20, 0x7F, 0x80..<0xA0: result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  @Test func anyText_isShownAsTheScalarRuleSays() {
    var random = SplitMix64(seed: 21)
    for _ in 0..<2_000 {
      let text = String(
        String.UnicodeScalarView(
          (0..<Int(random.next() % 16)).compactMap { _ in
            // Mostly the interesting range (controls, Latin-1, C1), sometimes anything.
            let value =
              random.next() % 4 == 0
              ? UInt32(random.next() % 0x11_0000) : UInt32(random.next() % 0x180)
            return Unicode.Scalar(value)
          }))
      #expect(TerminalText.visible(text) == Self.reference(text, keepingNewlines: true))
      #expect(TerminalText.visibleOnOneLine(text) == Self.reference(text, keepingNewlines: false))
    }
  }
}
