import Contract
import Foundation

/// Section 1 of the contract: accounts and sessions.
struct AuthRoutes {
  let backend: APIBackend

  func signUp(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let body: APIBody.SignUp = try decode(request)
    if let problem = Self.signUpProblem(body) {
      return .error(422, "invalid_request", problem)
    }
    let hasher = backend.passwordHasher
    let passwordHash = try await hashing { try hasher.hash(body.password) }
    let account = AccountRecord(
      id: backend.makeID(), username: body.username,
      name: body.name.trimmingCharacters(in: .whitespaces), passwordHash: passwordHash)
    guard try await backend.store.createAccount(account) == .created else {
      return .error(409, "username_taken", "The username \(body.username) is taken")
    }
    return try await issue(for: account, status: 201)
  }

  /// The throttle is asked first, so a throttled guess is never hashed. An unknown username
  /// is checked against a stand-in hash of the same cost, so that the time of the answer does
  /// not tell which usernames exist.
  func issueToken(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let body: APIBody.TokenRequest = try decode(request)
    guard body.grantType == APIBody.TokenRequest.passwordGrant else {
      return .error(400, "unsupported_grant_type", "Only the password grant is supported")
    }
    let throttle = backend.signInThrottle
    let address = request.remoteAddress
    if let wait = try await throttle.secondsToWait(
      username: body.username, address: address, now: backend.now())
    {
      backend.metrics.signInThrottled()
      return .error(
        429, "too_many_attempts", "Too many failed sign-ins: try again in \(wait) s",
        retryAfter: wait)
    }
    let account = try await backend.store.account(username: body.username)
    let hasher = backend.passwordHasher
    let stored = account?.passwordHash ?? hasher.standIn
    let verified = try await hashing { hasher.verify(body.password, against: stored) }
    guard let account, verified else {
      try await throttle.failed(username: body.username, address: address, now: backend.now())
      return .error(401, "invalid_grant", "The username or password is incorrect")
    }
    if account.id == backend.refusedDemoAccountID { return PublishedDemoAccount.refusal }
    try await throttle.succeeded(username: body.username)
    return try await issue(for: account, status: 200)
  }

  /// A hash on the backend's hashing pool; a full queue is a `503` that says when to retry.
  private func hashing<T: Sendable>(
    _ work: @escaping @Sendable () throws -> T
  ) async throws -> T {
    do {
      return try await backend.hashingPool.run(work)
    } catch is PasswordHashingPool.Busy {
      backend.metrics.signInRefusedBusy()
      throw BackendFailure(
        .error(
          503, "unavailable", "The server is busy checking other passwords: try again shortly",
          retryAfter: 1))
    }
  }

  func profile(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    let parts = account.name.split(separator: " ", maxSplits: 1).map(String.init)
    return .json(
      200,
      APIAnswer.UserProfile(
        id: account.id, username: account.username, name: account.name,
        firstName: parts.first, lastName: parts.count > 1 ? parts[1] : nil))
  }

  func revoke(_ request: APIRequest) async throws -> BackendHTTPResponse {
    _ = try await backend.authenticatedAccount(request)
    try await backend.revoke(tokenHash: APIBackend.hash(token: request.bearerToken!))
    return .noContent
  }

  private func issue(for account: AccountRecord, status: Int) async throws -> BackendHTTPResponse {
    let token = backend.makeToken()
    let record = TokenRecord(
      tokenHash: APIBackend.hash(token: token), accountID: account.id,
      createdAt: Int(backend.now().timeIntervalSince1970),
      expiresIn: APIBackend.tokenLifetime, scope: "public")
    try await backend.store.insert(record)
    return .json(
      status,
      APIAnswer.AccessToken(
        accessToken: token, scope: record.scope, createdAt: record.createdAt,
        expiresIn: record.expiresIn))
  }

  /// The server's own input rules. They match the app's today, but the app must not rely
  /// on that: it shows whatever a server's 422 says.
  private static func signUpProblem(_ body: APIBody.SignUp) -> String? {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
    if !(3...32).contains(body.username.count) || !body.username.allSatisfy(allowed.contains) {
      return "username must be 3 to 32 characters from a-z, 0-9, '.', '_' and '-'"
    }
    if body.name.trimmingCharacters(in: .whitespaces).isEmpty { return "name must not be empty" }
    if body.password.count < 8 { return "password must be at least 8 characters" }
    return nil
  }

  private func decode<Body: Decodable & TextFields>(_ request: APIRequest) throws -> Body {
    let body: Body
    do {
      body = try JSONDecoder().decode(Body.self, from: request.body)
    } catch {
      throw BackendFailure(
        .error(422, "invalid_request", "The request body is not the JSON this endpoint takes"))
    }
    if let problem = body.nulProblem {
      throw BackendFailure(.error(422, "invalid_request", problem))
    }
    return body
  }
}
