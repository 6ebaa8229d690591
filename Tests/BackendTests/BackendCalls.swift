import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Backend

/// Requests to a backend as a client makes them, for the tests that run two backends (two
/// `app serve` instances) side by side.
enum BackendCalls {
  static func signIn(_ backend: APIBackend) async throws -> String {
    let answer = await signIn(backend, password: "demo-password")
    return try #require(try json(answer)["access_token"] as? String)
  }

  static func signIn(_ backend: APIBackend, password: String) async
    -> BackendHTTPResponse
  {
    let body = ["grant_type": "password", "username": "demo", "password": password]
    return await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["oauth", "token"],
        headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(body)))
  }

  static func firstPendingLikeID(_ backend: APIBackend, token: String) async throws
    -> String
  {
    let page = await backend.handle(get("/likes?page=1&batchSize=1", token: token))
    let data = try #require(try json(page)["data"] as? [[String: Any]])
    return try #require(data.first?["id"] as? String)
  }

  static func get(_ target: String, token: String) -> BackendHTTPRequest {
    let url = URLComponents(string: target)!
    return BackendHTTPRequest(
      method: "GET", pathSegments: url.path.split(separator: "/").map(String.init),
      query: Dictionary(
        (url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 }),
      headers: ["Authorization": "Bearer \(token)"])
  }

  static func post(_ path: String, token: String) -> BackendHTTPRequest {
    BackendHTTPRequest(
      method: "POST", pathSegments: path.split(separator: "/").map(String.init),
      headers: ["Authorization": "Bearer \(token)"])
  }

  static func json(_ response: BackendHTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
  }
}

/// A request being answered in a task of its own, and its answer once there is one.
final class PendingAnswer: Sendable {
  private final class Slot: Sendable {
    let answer = Mutex<BackendHTTPResponse?>(nil)
  }
  private let slot = Slot()
  private let task: Task<Void, Never>

  init(_ backend: APIBackend, _ request: BackendHTTPRequest) {
    let slot = slot
    task = Task {
      let answer = await backend.handle(request)
      slot.answer.withLock { $0 = answer }
    }
  }

  var isAnswered: Bool { slot.answer.withLock { $0 != nil } }

  /// Cancels the request, as a caller that goes away does.
  func cancel() { task.cancel() }

  /// The answer, once it comes within `limit`; the request is cancelled if it does not.
  func answer(within limit: Duration) async throws -> BackendHTTPResponse {
    do {
      try await waitUntil("the answer", within: limit) { isAnswered }
    } catch {
      task.cancel()
      throw error
    }
    return slot.answer.withLock { $0! }
  }
}
