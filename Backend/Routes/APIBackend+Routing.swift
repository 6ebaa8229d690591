import Contract
import Foundation

extension APIBackend {
  /// Answers a request as the wire has it: the contract reads it first, so a path it does not
  /// know is a `404`, a method its path does not take a `405` with `Allow`, and a query that
  /// breaks its rules a `422` (after the bearer token is checked, as for any other answer of an
  /// authenticated operation).
  public func handle(_ request: BackendHTTPRequest) async -> BackendHTTPResponse {
    switch APIRoute.parse(request.resolved, target: request.target) {
    case .route(let route):
      return await handle(
        APIRequest(
          route, lowercasedHeaders: request.headers, body: request.body,
          remoteAddress: request.remoteAddress))
    case .invalidQuery(let operation, let problem):
      return await answering {
        if operation.authorization == .bearer {
          _ = try await authenticatedAccount(
            bearerToken: APIRequest.bearerToken(in: request.headers))
        }
        return .error(422, "invalid_request", problem)
      }
    case .methodNotAllowed(let allowed):
      return .methodNotAllowed(allowed, method: request.method, path: request.path)
    case .notFound:
      return .error(404, "not_found", "No route for \(request.method) \(request.path)")
    }
  }

  /// Answers a route of the contract: the server's way in, after parsing.
  public func handle(_ request: APIRequest) async -> BackendHTTPResponse {
    await answering { try await route(request) }
  }

  /// Answers a route as `handle` does, but throws the failure that `handle` would answer
  /// with a `500`: the in-process client's way in. Its person owns the backend's file, and
  /// is better told that the disk holding it is full than that a server failed.
  public func handleThrowingFailures(_ request: APIRequest) async throws -> BackendHTTPResponse {
    try await answeringOrThrowing { try await route(request) }
  }

  /// As `answeringOrThrowing`, with any failure answered with a `500`.
  private func answering(
    _ answer: () async throws -> BackendHTTPResponse
  ) async -> BackendHTTPResponse {
    do {
      return try await answeringOrThrowing(answer)
    } catch {
      return .serverFailure(error)
    }
  }

  /// Runs `answer` where the backend's work runs (`requestExecutor`), turning a thrown early
  /// answer into that answer and throwing any other failure. Once `close` has begun, nothing
  /// runs: the answer is a `503`, as from a server that is going away.
  private func answeringOrThrowing(
    _ answer: () async throws -> BackendHTTPResponse
  ) async throws -> BackendHTTPResponse {
    guard requestsInFlight.enter() else {
      return .error(503, "unavailable", "The backend has closed")
    }
    defer { requestsInFlight.leave() }
    return try await withTaskExecutorPreference(requestExecutor) {
      do {
        return try await answer()
      } catch let failure as BackendFailure {
        return failure.response
      }
    }
  }

  /// Each route to its feature's handler: the one switch of the server side.
  private func route(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let auth = AuthRoutes(backend: self)
    let messages = MessagesRoutes(backend: self)
    let likes = LikesRoutes(backend: self)
    let push = PushRoutes(backend: self)
    let people = PeopleRoutes(backend: self)
    switch request.route {
    case .signUp: return try await auth.signUp(request)
    case .issueToken: return try await auth.issueToken(request)
    case .profile: return try await auth.profile(request)
    case .revokeToken: return try await auth.revoke(request)
    case .listConversations: return try await messages.all(request)
    case .conversation(let name): return try await messages.one(request, name: name)
    case .addMessage: return try await messages.add(request)
    case .likesPage(let page, let batchSize):
      return try await likes.page(request, page: page, batchSize: batchSize)
    case .likeBack(let id): return try await likes.likeBack(request, id: id)
    case .skipLike(let id): return try await likes.skip(request, id: id)
    case .mutuals: return try await likes.mutuals(request)
    case .events(let after, let wait):
      return try await likes.events(request, after: after, wait: wait)
    case .peoplePage(let page, let batchSize):
      return try await people.page(request, page: page, batchSize: batchSize)
    case .likePerson(let id): return try await people.like(request, id: id)
    case .passPerson(let id): return try await people.pass(request, id: id)
    case .blockPerson(let id): return try await people.block(request, id: id)
    case .unmatch(let id): return try await people.unmatch(request, id: id)
    case .pushSession, .pushStatus, .pushRegister, .pushDeregister, .vendorStatus,
      .vendorRegister, .vendorDeregister:
      return try await push.respond(to: request)
    case .health: return HealthRoutes.alive
    case .readiness: return await HealthRoutes(backend: self).readiness()
    case .metrics: return HealthRoutes(backend: self).metrics()
    }
  }
}

/// A store's failure that knows more than its description says, for the 500's text: the
/// core names no store, so each store's errors say it themselves.
protocol DiagnosedFailure: Error {
  var diagnosis: String? { get }
}

/// An answer that ends a route early, such as a 401 or a 422.
struct BackendFailure: Error {
  let response: BackendHTTPResponse
  init(_ response: BackendHTTPResponse) { self.response = response }
}
