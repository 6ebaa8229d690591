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

  /// Answers a route of the contract: the in-process client's way in, and the server's after
  /// parsing.
  public func handle(_ request: APIRequest) async -> BackendHTTPResponse {
    await answering { try await route(request) }
  }

  /// Runs `answer` where the backend's work runs (`requestExecutor`), turning a thrown early
  /// answer into that answer and any other failure into a `500`. Once `close` has begun,
  /// nothing runs: the answer is a `503`, as from a server that is going away.
  private func answering(
    _ answer: () async throws -> BackendHTTPResponse
  ) async -> BackendHTTPResponse {
    guard requestsInFlight.enter() else {
      return .error(503, "unavailable", "The backend has closed")
    }
    defer { requestsInFlight.leave() }
    return await withTaskExecutorPreference(requestExecutor) {
      do {
        return try await answer()
      } catch let failure as BackendFailure {
        return failure.response
      } catch {
        let detail = (error as? DiagnosedFailure)?.diagnosis.map { " (\($0))" } ?? ""
        return .error(500, "server_error", "The backend failed: \(error)\(detail)")
      }
    }
  }

  /// Each route to its feature's handler: the one switch of the server side.
  private func route(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let auth = AuthRoutes(backend: self)
    let messages = MessagesRoutes(backend: self)
    let likes = LikesRoutes(backend: self)
    let push = PushRoutes(backend: self)
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
