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
  /// People by name, case-insensitively; names that differ only in case by their exact
  /// text, and names equal even then (é written two ways) by their UTF-8 bytes: one order,
  /// every time, whatever order the server's object had.
  public func sortedByName() -> [UserMessages] {
    sorted { (lhs: UserMessages, rhs: UserMessages) -> Bool in
      let folded = lhs.name.caseInsensitiveCompare(rhs.name)
      if folded != .orderedSame { return folded == .orderedAscending }
      if lhs.name != rhs.name { return lhs.name < rhs.name }
      return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }
  }
}
