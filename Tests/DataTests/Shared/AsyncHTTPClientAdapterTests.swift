import AsyncHTTPClient
import Backend
import Contract
import Domain
import Foundation
import NIOHTTP1
import Synchronization
import TestSupport
import Testing

@testable import Data

/// The live client against a real server on 127.0.0.1: what reaches the server, what comes
/// back, and every way the exchange can fail, each as the `RemoteAPIError` a user reads.
@Suite(.timeLimit(.minutes(1))) struct AsyncHTTPClientAdapterTests {
  /// A redirect included: it is handed back, never followed with the bearer token.
  @Test func deliversStatusAndBody_ofAnyStatus() async throws {
    let server = try await LoopbackHTTPServer.start { request in
      switch request.pathSegments.last {
      case "ok": BackendHTTPResponse(status: 200, body: Data("ok".utf8))
      case "broken": BackendHTTPResponse(status: 500, body: Data("<html>oops</html>".utf8))
      case "moved":
        BackendHTTPResponse(status: 302, headers: ["Location": "http://elsewhere.test/me"])
      default: BackendHTTPResponse(status: 401)
      }
    }
    defer { server.cancel() }

    for (path, status, body) in [
      ("ok", 200, "ok"), ("broken", 500, "<html>oops</html>"), ("me", 401, ""), ("moved", 302, ""),
    ] {
      let response = try await AsyncHTTPClientAdapter().send(
        HTTPRequest(.conversation(name: path), on: APIEndpoint(baseURL: server.baseURL)))

      #expect(response.status == status)
      #expect(String(decoding: response.body, as: UTF8.self) == body)
    }
  }

  @Test func sendsTheMethodPathHeadersAndBodyUnchanged() async throws {
    let seen = Mutex<BackendHTTPRequest?>(nil)
    let server = try await LoopbackHTTPServer.start { request in
      seen.withLock { $0 = request }
      return BackendHTTPResponse(status: 204)
    }
    defer { server.cancel() }
    var request = HTTPRequest.postingJSON(
      .revokeToken, on: APIEndpoint(baseURL: server.baseURL.appendingPathComponent("api/v1")),
      ["why": "done"])
    request.authorize(with: AccessToken("T"))

    _ = try await AsyncHTTPClientAdapter().send(request)

    let received = try #require(seen.withLock { $0 })
    #expect(received.method == "POST")
    #expect(received.pathSegments == ["api", "v1", "auth", "revoke"])
    #expect(header("Authorization", in: received) == "Bearer T")
    #expect(header("Content-Type", in: received) == "application/json")
    #expect(String(decoding: received.body, as: UTF8.self) == #"{"why":"done"}"#)
  }

  @Test func signsInOverRealHTTP_withTheEmbeddedBackendBehindAPathPrefix() async throws {
    let backend = try TestBackend.make()
    let server = try await LoopbackHTTPServer.start { request in
      // The server mounts the API under /api/v1, as a reverse proxy would.
      guard request.pathSegments.starts(with: ["api", "v1"]) else {
        return BackendHTTPResponse(status: 404)
      }
      return await backend.handle(
        BackendHTTPRequest(
          method: request.method, target: request.target.droppingPrefix(["api", "v1"]),
          headers: request.headers, body: request.body))
    }
    defer { server.cancel() }
    let api = HTTPAuthRemoteAPI(
      endpoint: APIEndpoint(baseURL: server.baseURL.appendingPathComponent("api/v1")),
      client: AsyncHTTPClientAdapter())

    let token = try await api.signIn(
      username: DemoPeople.username, password: DemoPeople.password)
    let profile = try await api.fetchProfile(with: token)

    #expect(profile.username == "demo")
    #expect(server.requests == ["POST /api/v1/oauth/token", "GET /api/v1/me"])
  }

  @Test func reportsUnreachable_atOnce_whenNothingListens() async throws {
    let port = try await LoopbackHTTPServer.closedPort()

    await #expect(
      throws: RemoteAPIError.unreachable(reason: "could not connect to 127.0.0.1:\(port)")
    ) {
      try await AsyncHTTPClientAdapter().send(
        HTTPRequest(.profile, on: APIEndpoint(baseURL: URL(string: "http://127.0.0.1:\(port)")!)))
    }
  }

  @Test func givesUpAtItsDeadline_whenTheServerDoesNotAnswer() async throws {
    let release = AsyncStream<Void>.makeStream()
    let server = try await LoopbackHTTPServer.start { _ in
      for await _ in release.stream {}
      return BackendHTTPResponse(status: 200)
    }
    defer {
      release.continuation.finish()
      server.cancel()
    }
    // A short limit keeps the test quick; the app's is 15 s.
    let client = AsyncHTTPClientAdapter(timeout: .milliseconds(300))

    await #expect(throws: RemoteAPIError.timedOut(seconds: 0)) {
      try await client.send(HTTPRequest(.profile, on: APIEndpoint(baseURL: server.baseURL)))
    }
  }

  @Test func stopsAtOnce_whenTheCallerIsCancelled() async throws {
    let release = AsyncStream<Void>.makeStream()
    let arrived = AsyncStream<Void>.makeStream()
    let server = try await LoopbackHTTPServer.start { _ in
      arrived.continuation.yield()
      for await _ in release.stream {}
      return BackendHTTPResponse(status: 200)
    }
    defer {
      release.continuation.finish()
      server.cancel()
    }
    let call = Task {
      try await AsyncHTTPClientAdapter().send(
        HTTPRequest(.profile, on: APIEndpoint(baseURL: server.baseURL)))
    }
    // Cancelled once the request is in the server's hands, where nothing else would end it
    // for 15 s.
    for await _ in arrived.stream { break }
    call.cancel()

    await #expect(throws: CancellationError.self) { try await call.value }
  }

  @Test func refusesAnAnswerLargerThanItsLimit() async throws {
    let server = try await LoopbackHTTPServer.start { _ in
      BackendHTTPResponse(status: 200, body: Data(repeating: 0x61, count: 3 << 20))
    }
    defer { server.cancel() }
    let client = AsyncHTTPClientAdapter(maximumBodySize: 2 << 20)

    await #expect(
      throws: RemoteAPIError.invalidResponse(
        reason: "127.0.0.1:\(server.port) sent an answer larger than 2 MiB")
    ) {
      try await client.send(HTTPRequest(.mutuals, on: APIEndpoint(baseURL: server.baseURL)))
    }
  }

  @Test(arguments: [
    (HTTPClientError.deadlineExceeded, RemoteAPIError.timedOut(seconds: 15)),
    (.connectTimeout, .timedOut(seconds: 15)),
    (
      .remoteConnectionClosed,
      .unreachable(reason: "mapped.test closed the connection before answering")
    ),
    (.invalidURL, .unreachable(reason: "http://mapped.test/me is not a usable URL")),
  ])
  func namesTransportFailures(error: HTTPClientError, expected: RemoteAPIError) {
    let mapped = AsyncHTTPClientErrorMapper.map(
      error, timeout: .seconds(15), url: URL(string: "http://mapped.test/me")!)
    #expect(mapped as? RemoteAPIError == expected)
  }

  @Test func namesAMalformedAnswer() {
    let mapped = AsyncHTTPClientErrorMapper.map(
      HTTPParserError.invalidHeaderToken, timeout: .seconds(15),
      url: URL(string: "http://mapped.test:8080/me")!)
    #expect(
      mapped as? RemoteAPIError
        == .invalidResponse(reason: "mapped.test:8080 sent a malformed HTTP response"))
  }

  private func header(_ name: String, in request: BackendHTTPRequest) -> String? {
    request.headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
