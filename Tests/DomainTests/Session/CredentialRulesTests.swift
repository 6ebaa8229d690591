import Domain
import Testing

@Suite(.timeLimit(.minutes(1))) struct CredentialRulesTests {
  @Test(arguments: [
    ("alice", "Alice", "long-enough", [CredentialIssue]()),
    ("", "Alice", "long-enough", [.usernameMissing]),
    ("al", "Alice", "long-enough", [.usernameMalformed]),
    (String(repeating: "a", count: 33), "Alice", "long-enough", [.usernameMalformed]),
    ("Alice", "Alice", "long-enough", [.usernameMalformed]),
    ("al ice", "Alice", "long-enough", [.usernameMalformed]),
    ("a.l_i-ce9", "Alice", "long-enough", []),
    ("alice", "   ", "long-enough", [.nameMissing]),
    ("alice", "Alice", "", [.passwordMissing]),
    ("alice", "Alice", "1234567", [.passwordTooShort]),
    ("alice", "Alice", "12345678", []),
    ("", "", "", [.usernameMissing, .nameMissing, .passwordMissing]),
  ])
  func signUpIssues(username: String, name: String, password: String, expected: [CredentialIssue]) {
    let account = NewAccount(username: username, name: name, password: password)
    #expect(CredentialRules.issues(signingUp: account) == expected)
  }

  @Test func signInOnlyChecksPresence_soOldAccountsCanStillSignIn() {
    #expect(CredentialRules.issues(signingInAs: "Old User", password: "short") == [])
    #expect(
      CredentialRules.issues(signingInAs: " ", password: "") == [
        .usernameMissing, .passwordMissing,
      ])
  }

  @Test func accessTokenNeverShowsItsValueWhenPrinted() {
    let token = AccessToken("very-secret-value")
    #expect(!"\(token)".contains("very-secret-value"))
    #expect(!String(reflecting: token).contains("very-secret-value"))
    #expect(
      !"\(RemoteUserSession(username: "a", accessToken: token))".contains("very-secret-value"))
  }
}
