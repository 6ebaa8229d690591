import Backend
import Contract
import Data
import Foundation
import Synchronization
import TestSupport
import Testing

/// The embedded backend served over real HTTP on loopback, under a path of its own, with
/// answers a test can override per route ("GET /me" → a 500 page, or no answer at all): a
/// server the app only knows by its URL, as it would know any other.
final class ServedBackend: Sendable {
  let server: LoopbackHTTPServer
  let backend: APIBackend
  private let overrides: Overrides
  /// The path segments the API is served under: `api/v1` below a segment of this server's
  /// own, so that no two servers of a run have one URL. The keyring keeps a session under its
  /// server's URL, and the kernel gives a later server the port of an earlier one now and
  /// then: under `/api/v1` alone, a test that looked for no session on its server found the
  /// one an earlier test had left on the same port.
  let prefix: [String]

  /// A new `s<8 hex digits>/api/v1`, the path segments no other server of the run uses.
  static func uniqueAPIPath() -> [String] {
    ["s" + UUID().uuidString.prefix(8).lowercased(), "api", "v1"]
  }

  private init(
    server: LoopbackHTTPServer, backend: APIBackend, overrides: Overrides, prefix: [String]
  ) {
    self.server = server
    self.backend = backend
    self.overrides = overrides
    self.prefix = prefix
  }

  /// `likeInterval`: how often the backend invents a like while somebody waits for events.
  /// `now`: the backend's time, which a test moves on to make likes due.
  static func start(
    likeInterval: ClosedRange<Double> = DemoPeople.defaultLikeInterval,
    now: TestNow = TestNow()
  ) async throws -> ServedBackend {
    let backend = try TestBackend.make(now: now, likeInterval: likeInterval)
    let overrides = Overrides()
    let prefix = uniqueAPIPath()
    let server = try await LoopbackHTTPServer.start { request in
      guard request.pathSegments.starts(with: prefix) else {
        return BackendHTTPResponse(status: 404, body: Data("<html>not here</html>".utf8))
      }
      let inner = BackendHTTPRequest(
        method: request.method, target: request.target.droppingPrefix(prefix),
        headers: request.headers, body: request.body)
      switch overrides.answer(for: "\(inner.method) \(inner.path)") {
      case .some(.respond(let answer)):
        return answer
      case .some(.silence):
        // Never answers: the client's own time limit must end the wait. Released when the
        // test ends, so that the server can stop.
        await overrides.released()
        return BackendHTTPResponse(status: 503)
      case nil:
        return await backend.handle(inner)
      }
    }
    return ServedBackend(server: server, backend: backend, overrides: overrides, prefix: prefix)
  }

  /// The URL to pass as `--api-url`, with its path prefix; also the keyring's `server`.
  var apiURL: String { "http://127.0.0.1:\(server.port)\(path)" }

  /// The path prefix, as a request line shows it: `/s1a2b3c4d/api/v1`.
  var path: String { "/" + prefix.joined(separator: "/") }

  /// Makes `route` ("GET /me") answer `status` with `body` (and `headers`) from now on.
  func answer(
    _ route: String, status: Int, body: String, contentType: String = "application/json",
    headers: [String: String] = [:]
  ) {
    overrides.set(
      route,
      .respond(
        BackendHTTPResponse(
          status: status, headers: headers.merging(["Content-Type": contentType]) { $1 },
          body: Data(body.utf8))))
  }

  /// Makes `route` never answer, until the server stops.
  func neverAnswer(_ route: String) {
    overrides.set(route, .silence)
  }

  /// Makes `route` answer as the backend does again. A request already held stays held.
  func answerNormally(_ route: String) {
    overrides.clear(route)
  }

  /// The routes the app asked for, below the prefix.
  var requests: [String] {
    server.requests.map { $0.replacingOccurrences(of: " \(path)/", with: " /") }
  }

  /// Returns once a realtime watch waits on the server: its first poll (`after` nothing)
  /// takes what is there as history; the second waits for what comes next, so an event from
  /// then on is news to it. Waiting for that, not for a time, keeps a test exact.
  func waitForTheWatchsWaitingPoll(within limit: Duration = .seconds(20)) async throws {
    try await waitUntil("the watch's waiting poll", within: limit) {
      requests.filter { $0.hasPrefix("GET /events") }.count >= 2
    }
  }

  /// Stops the server and returns once its port refuses connections.
  func stop() async {
    overrides.release()
    await server.stop()
  }

  /// Stops the server without waiting, for `defer` blocks.
  func cancel() {
    overrides.release()
    server.cancel()
  }
}

private final class Overrides: Sendable {
  enum Override: Sendable {
    case respond(BackendHTTPResponse)
    case silence
  }

  private let routes = Mutex<[String: Override]>([:])
  private let releases = AsyncStream<Void>.makeStream()

  func set(_ route: String, _ override: Override) { routes.withLock { $0[route] = override } }
  func clear(_ route: String) { routes.withLock { $0[route] = nil } }
  func answer(for route: String) -> Override? { routes.withLock { $0[route] } }

  /// Returns when the server stops (or the waiting request is cancelled).
  func released() async {
    for await _ in releases.stream {}
  }

  func release() { releases.continuation.finish() }
}

extension AppRunner {
  /// Signs the demo account in on `served`, the start of most session scenarios.
  func signInDemo(on served: ServedBackend) async throws {
    let result = try await run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"],
      stdin: "demo-password")
    #expect(result.status == 0, "signing in failed: \(result.stderr)")
  }
}

extension AppRunner {
  /// Registers this device (`environment`'s `APP_DEVICE_ID`) with both backends of `served`,
  /// the state a test of turning push off starts from.
  func turnPushOn(on served: ServedBackend, environment: [String: String?]) async throws {
    let on = try await run(
      ["push", "on", "--allow-notifications", "--api-url", served.apiURL],
      environment: environment)
    try #require(on.status == 0, "turning push on first failed: \(on.stderr)")
  }
}

extension ServedBackend {
  /// What each backend says of `deviceID`, asked of the backend itself (past any override):
  /// ("register" | "unregister" | "anotherDevice", "register" | "unregister").
  func registrations(of deviceID: String) async throws -> (push: String, vendor: String) {
    let signedIn = await backend.handle(
      Self.request(
        "POST", "/oauth/token",
        json: ["grant_type": "password", "username": "demo", "password": "demo-password"]))
    let token = try #require(try Self.field("access_token", of: signedIn))
    let opened = await backend.handle(
      Self.request("POST", "/push/session", headers: ["Authorization": "Bearer \(token)"]))
    let session = try #require(try Self.field("session", of: opened))
    let push = await backend.handle(
      Self.request("GET", "/push/status", query: ["session": session, "uuid": deviceID]))
    let vendor = await backend.handle(
      Self.request("GET", "/vendor/status", query: ["uuid": deviceID]))
    return (
      try #require(try Self.field("status", of: push)),
      try #require(try Self.field("status", of: vendor))
    )
  }

  private static func request(
    _ method: String, _ path: String, query: [String: String] = [:],
    headers: [String: String] = [:], json: [String: String]? = nil
  ) -> BackendHTTPRequest {
    var headers = headers
    if json != nil { headers["Content-Type"] = "application/json" }
    return BackendHTTPRequest(
      method: method, pathSegments: path.split(separator: "/").map(String.init), query: query,
      headers: headers, body: json.map { try! JSONEncoder().encode($0) } ?? Data())
  }

  private static func field(_ name: String, of response: BackendHTTPResponse) throws -> String? {
    let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    return object?[name] as? String
  }
}
