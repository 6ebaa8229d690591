import Foundation

/// A person and their messages, in the order the server gave them.
public struct UserMessages: Equatable, Sendable {
  public let name: String
  public let messages: [Message]

  public init(name: String, messages: [Message]) {
    self.name = name
    self.messages = messages
  }
}

extension [UserMessages] {
  /// People by name, case-insensitively (Unicode case folding, so "ß" sorts with "ss"),
  /// then by the name's UTF-8 bytes: one order, every time, whatever order the server's
  /// object had. Each name's folded form is made once, before sorting, so a comparison is
  /// two byte-wise compares and never a locale-aware one.
  public func sortedByName() -> [UserMessages] {
    let keys = map(NameSortKey.init)
    return indices.sorted { keys[$0] < keys[$1] }.map { self[$0] }
  }
}

/// A name as `sortedByName` compares it: its case folding, then its exact bytes, both in
/// code point order (which byte-wise UTF-8 order is).
struct NameSortKey: Comparable {
  let folded: [UInt8]
  let exact: [UInt8]

  init(_ person: UserMessages) {
    exact = Array(person.name.utf8)
    folded = Self.caseFolded(person.name, utf8: exact)
  }

  /// The name's full Unicode case folding, as Foundation's locale-free `folding` gives it.
  /// Most names need no Foundation call: ASCII folds by lowering A-Z, and Latin-1 and
  /// Latin Extended-A fold as they lowercase, but for the four listed in
  /// `foldsAsItLowercases`. Foundation's call costs about a microsecond a name.
  static func caseFolded(_ name: String, utf8: [UInt8]) -> [UInt8] {
    if utf8.allSatisfy({ $0 < 0x80 }) {
      return utf8.map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }
    }
    if name.unicodeScalars.allSatisfy(foldsAsItLowercases) {
      return Array(name.lowercased().utf8)
    }
    return Array(name.folding(options: .caseInsensitive, locale: nil).utf8)
  }

  /// Up to U+017F, folding is lowercasing except for µ (folds to Greek μ), ß (to "ss"),
  /// ŉ (to "ʼn") and ſ (to "s").
  static func foldsAsItLowercases(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0xB5, 0xDF, 0x149, 0x17F: false
    case 0...0x17F: true
    default: false
    }
  }

  static func < (lhs: NameSortKey, rhs: NameSortKey) -> Bool {
    if lhs.folded != rhs.folded { return lhs.folded.lexicographicallyPrecedes(rhs.folded) }
    return lhs.exact.lexicographicallyPrecedes(rhs.exact)
  }
}
