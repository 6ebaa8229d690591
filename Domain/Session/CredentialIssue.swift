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
    issues(username: account.username) + issues(name: account.name)
      + issues(password: account.password)
  }

  /// A new account's username, checked as soon as it is typed.
  public static func issues(username: String) -> [CredentialIssue] {
    if username.isEmpty { return [.usernameMissing] }
    return isWellFormedUsername(username) ? [] : [.usernameMalformed]
  }

  public static func issues(name: String) -> [CredentialIssue] {
    name.trimmingCharacters(in: .whitespaces).isEmpty ? [.nameMissing] : []
  }

  /// A new account's password: present, and long enough.
  public static func issues(password: String) -> [CredentialIssue] {
    if password.isEmpty { return [.passwordMissing] }
    return password.count < minimumPasswordLength ? [.passwordTooShort] : []
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
