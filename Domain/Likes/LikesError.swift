import Foundation

/// Failures with a meaning in the likes feature.
public enum LikesError: Error, Equatable, Sendable {
  case unknownPerson(id: String)
  /// An id prefix that matches more than one cached like.
  case ambiguousID(prefix: String, matches: [String])
  /// An id prefix shorter than the minimum.
  case idTooShort(String)
}
