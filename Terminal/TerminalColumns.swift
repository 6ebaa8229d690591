/// How many columns text takes on a terminal: what the line editor needs to know on which row
/// the cursor stands once a line wraps.
enum TerminalColumns {
  /// How many columns `text` takes on a terminal: wide (East Asian, emoji) characters take
  /// two, combining marks none. What the line editor needs to know on which row the cursor
  /// stands once a line wraps; text with escape sequences is not measured here.
  static func of(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  private static func of(_ scalar: Unicode.Scalar) -> Int {
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    if properties.isEmojiPresentation { return 2 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default: return 1
    }
  }
}
