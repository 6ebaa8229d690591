import Foundation

/// A reason why typed credentials are refused before any request is made.
public enum CredentialIssue: Equatable, Sendable, CaseIterable {
  case usernameMissing
  case usernameMalformed
  case nameMissing
  case passwordMissing
  case passwordTooShort
}

/// The input rules for signing in and signing up, as pure functions.
///
/// Sign-in only checks presence: the server alone knows whether an old account's name or
/// password would pass today's rules. Sign-up applies the full rules so that a person learns
/// about a too-short password before a round trip.
public enum CredentialRules {
  public static let minimumPasswordLength = 8
  public static let usernameLengths = 3...32

  public static func issues(signingInAs username: String, password: String) -> [CredentialIssue] {
    var issues: [CredentialIssue] = []
    if username.trimmingCharacters(in: .whitespaces).isEmpty { issues.append(.usernameMissing) }
    if password.isEmpty { issues.append(.passwordMissing) }
    return issues
  }

  public static func issues(signingUp account: NewAccount) -> [CredentialIssue] {
    var issues: [CredentialIssue] = []
    if account.username.isEmpty {
      issues.append(.usernameMissing)
    } else if !isWellFormedUsername(account.username) {
      issues.append(.usernameMalformed)
    }
    if account.name.trimmingCharacters(in: .whitespaces).isEmpty { issues.append(.nameMissing) }
    if account.password.isEmpty {
      issues.append(.passwordMissing)
    } else if account.password.count < minimumPasswordLength {
      issues.append(.passwordTooShort)
    }
    return issues
  }

  /// 3 to 32 characters from `a-z`, `0-9`, `.`, `_` and `-`: safe in a URL, a keyring
  /// attribute and a terminal alike.
  public static func isWellFormedUsername(_ username: String) -> Bool {
    usernameLengths.contains(username.count)
      && username.unicodeScalars.allSatisfy { allowedUsernameScalars.contains($0) }
  }

  private static let allowedUsernameScalars = Set(
    "abcdefghijklmnopqrstuvwxyz0123456789._-".unicodeScalars)
}
