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
    // ASCII folds by lowering A-Z; anything else asks Foundation's (locale-free) folding.
    folded =
      exact.allSatisfy { $0 < 0x80 }
      ? exact.map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }
      : Array(person.name.folding(options: .caseInsensitive, locale: nil).utf8)
  }

  static func < (lhs: NameSortKey, rhs: NameSortKey) -> Bool {
    if lhs.folded != rhs.folded { return lhs.folded.lexicographicallyPrecedes(rhs.folded) }
    return lhs.exact.lexicographicallyPrecedes(rhs.exact)
  }
}
