import Foundation

/// Section 1 of the contract: accounts and sessions.
struct AuthRoutes: BackendRoutes {
  let backend: EmbeddedBackend

  func respond(to request: BackendHTTPRequest) async throws -> BackendHTTPResponse? {
    switch (request.method, request.pathSegments) {
    case ("POST", ["auth", "signup"]): try signUp(request)
    case ("POST", ["oauth", "token"]): try issueToken(request)
    case ("GET", ["me"]): try profile(request)
    case ("POST", ["auth", "revoke"]): try revoke(request)
    default: nil
    }
  }

  private struct SignUpBody: Decodable {
    let username: String
    let password: String
    let name: String
  }

  private struct TokenRequestBody: Decodable {
    let grant_type: String
    let username: String
    let password: String
  }

  private struct AccessTokenBody: Encodable {
    let access_token: String
    let token_type = "bearer"
    let scope: String
    let created_at: Int
    let expires_in: Int
  }

  private struct UserProfileBody: Encodable {
    let id: String
    let username: String
    let name: String
    let first_name: String?
    let last_name: String?
  }

  private func signUp(_ request: BackendHTTPRequest) throws -> BackendHTTPResponse {
    let body: SignUpBody = try decode(request)
    if let problem = Self.signUpProblem(body) {
      return .error(422, "invalid_request", problem)
    }
    let account = AccountRecord(
      id: backend.makeID(), username: body.username,
      name: body.name.trimmingCharacters(in: .whitespaces),
      passwordHash: try backend.passwordHasher.hash(body.password))
    guard try backend.database.createAccount(account) == .created else {
      return .error(409, "username_taken", "The username \(body.username) is taken")
    }
    return try issue(for: account, status: 201)
  }

  private func issueToken(_ request: BackendHTTPRequest) throws -> BackendHTTPResponse {
    let body: TokenRequestBody = try decode(request)
    guard body.grant_type == "password" else {
      return .error(400, "unsupported_grant_type", "Only the password grant is supported")
    }
    guard let account = try backend.database.account(username: body.username),
      backend.passwordHasher.verify(body.password, against: account.passwordHash)
    else {
      return .error(401, "invalid_grant", "The username or password is incorrect")
    }
    return try issue(for: account, status: 200)
  }

  private func profile(_ request: BackendHTTPRequest) throws -> BackendHTTPResponse {
    let account = try backend.authenticatedAccount(request)
    let parts = account.name.split(separator: " ", maxSplits: 1).map(String.init)
    return .json(
      200,
      UserProfileBody(
        id: account.id, username: account.username, name: account.name,
        first_name: parts.first, last_name: parts.count > 1 ? parts[1] : nil))
  }

  private func revoke(_ request: BackendHTTPRequest) throws -> BackendHTTPResponse {
    _ = try backend.authenticatedAccount(request)
    _ = try backend.database.deleteToken(hash: EmbeddedBackend.hash(token: request.bearerToken!))
    return .noContent
  }

  private func issue(for account: AccountRecord, status: Int) throws -> BackendHTTPResponse {
    let token = backend.makeToken()
    let record = TokenRecord(
      tokenHash: EmbeddedBackend.hash(token: token), accountID: account.id,
      createdAt: Int(backend.now().timeIntervalSince1970),
      expiresIn: EmbeddedBackend.tokenLifetime, scope: "public")
    try backend.database.insert(record)
    return .json(
      status,
      AccessTokenBody(
        access_token: token, scope: record.scope, created_at: record.createdAt,
        expires_in: record.expiresIn))
  }

  /// The server's own input rules. They match the app's today, but the app must not rely
  /// on that: it shows whatever a server's 422 says.
  private static func signUpProblem(_ body: SignUpBody) -> String? {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
    if !(3...32).contains(body.username.count) || !body.username.allSatisfy(allowed.contains) {
      return "username must be 3 to 32 characters from a-z, 0-9, '.', '_' and '-'"
    }
    if body.name.trimmingCharacters(in: .whitespaces).isEmpty { return "name must not be empty" }
    if body.password.count < 8 { return "password must be at least 8 characters" }
    return nil
  }

  private func decode<Body: Decodable>(_ request: BackendHTTPRequest) throws -> Body {
    do {
      return try JSONDecoder().decode(Body.self, from: request.body)
    } catch {
      throw BackendFailure(
        .error(422, "invalid_request", "The request body is not the JSON this endpoint takes"))
    }
  }
}
