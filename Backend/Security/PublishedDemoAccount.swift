/// The demo account a demo left in a database, found when a server that is no demo opens it.
/// Its password is published in the README, so anyone could sign in as it: such a server
/// refuses its sign-ins and its tokens, and says so once at start.
enum PublishedDemoAccount {
  /// The id of the account named `demo` whose password is still the published one, or nil.
  /// One hash at start, at the cost the account's hash was made with.
  static func find(in store: any BackendStore, hasher: PasswordHasher) async throws -> String? {
    guard let account = try await store.account(username: DemoPeople.username),
      hasher.verify(DemoPeople.password, against: account.passwordHash)
    else { return nil }
    return account.id
  }

  /// What a sign-in as it is told: the password is right, and the server refuses it.
  static let refusal = BackendHTTPResponse.error(
    401, "invalid_grant",
    "The demo account signs in only on a server started as a demo (app serve --demo)")
}
