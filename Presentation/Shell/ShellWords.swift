import Foundation

/// Splits a typed line into words as a POSIX shell would for plain words: spaces separate,
/// single quotes keep everything, double quotes keep spaces and take `\"` and `\\`, and a
/// backslash outside quotes keeps the next character. Names with spaces (`"Ann Lee"`) and
/// texts with quotes reach the command as the person meant them.
public enum ShellWords {
  public struct UnclosedQuote: Error, Equatable, Sendable {
    public let quote: Character
  }

  public static func split(_ line: String) throws(UnclosedQuote) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var iterator = line.makeIterator()
    while let character = iterator.next() {
      switch character {
      case " ", "\t":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "'":
        inWord = true
        guard let quoted = read(&iterator, until: "'", escapes: false) else {
          throw UnclosedQuote(quote: "'")
        }
        word += quoted
      case "\"":
        inWord = true
        guard let quoted = read(&iterator, until: "\"", escapes: true) else {
          throw UnclosedQuote(quote: "\"")
        }
        word += quoted
      case "\\":
        inWord = true
        if let next = iterator.next() { word.append(next) }
      default:
        inWord = true
        word.append(character)
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// The text up to the closing `quote`, or nil when the line ends first.
  private static func read(
    _ iterator: inout String.Iterator, until quote: Character, escapes: Bool
  ) -> String? {
    var text = ""
    while let character = iterator.next() {
      if character == quote { return text }
      if escapes, character == "\\" {
        guard let next = iterator.next() else { return nil }
        if next != quote && next != "\\" { text.append("\\") }
        text.append(next)
        continue
      }
      text.append(character)
    }
    return nil
  }

  /// `word` as it must be typed to come back as one word: quoted when it holds a space,
  /// a quote or a backslash.
  public static func quoted(_ word: String) -> String {
    let special: Set<Character> = [" ", "\t", "'", "\"", "\\"]
    guard word.contains(where: special.contains) || word.isEmpty else { return word }
    let escaped = word.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
    return "\"\(escaped)\""
  }
}
