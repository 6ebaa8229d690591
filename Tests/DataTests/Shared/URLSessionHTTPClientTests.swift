import Backend
import Domain
import Foundation
import TestSupport
import Testing

@testable import Data

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1))) struct URLSessionHTTPClientTests {
  // MARK: - Against a URLProtocol stub

  @Test func send_deliversStatusAndBody_ofAnyStatus() async throws {
    for (status, body) in [(200, "ok"), (500, "<html>oops</html>"), (401, "")] {
      let host = "stub-\(status).test"
      URLProtocolStub.stub(host: host, with: .response(status: status, body: Data(body.utf8)))

      let (data, response) = try await makeSUT().send(
        URLRequest(url: URL(string: "http://\(host)/me")!))

      #expect(response.statusCode == status)
      #expect(String(decoding: data, as: UTF8.self) == body)
    }
  }

  @Test func send_passesTheRequestThroughUnchanged() async throws {
    let host = "passthrough.test"
    URLProtocolStub.stub(host: host, with: .response(status: 204, body: Data()))
    var request = URLRequest(url: URL(string: "http://\(host)/api/v1/auth/revoke")!)
    request.httpMethod = "POST"
    request.setValue("Bearer T", forHTTPHeaderField: "Authorization")

    _ = try await makeSUT().send(request)

    let seen = try #require(URLProtocolStub.requests(to: host).first)
    #expect(seen.httpMethod == "POST")
    #expect(seen.url?.path == "/api/v1/auth/revoke")
    #expect(seen.value(forHTTPHeaderField: "Authorization") == "Bearer T")
  }

  @Test(arguments: [
    (URLError.Code.timedOut, RemoteAPIError.timedOut(seconds: 15)),
    (.cannotConnectToHost, .unreachable(reason: "could not connect to mapped.test")),
    (.cannotFindHost, .unreachable(reason: "unknown host mapped.test")),
    (.notConnectedToInternet, .unreachable(reason: "no network connection")),
    (.badURL, .unreachable(reason: "http://mapped.test/me is not a usable URL")),
    (
      .serverCertificateUntrusted,
      .unreachable(reason: "no secure connection to mapped.test (its TLS certificate)")
    ),
    (
      .resourceUnavailable,
      .unreachable(reason: "mapped.test could not be reached (URL error -1008)")
    ),
  ])
  func send_mapsTransportErrors(code: URLError.Code, expected: RemoteAPIError) async {
    let error = URLSessionHTTPClient.map(
      URLError(code), timeout: 15, url: URL(string: "http://mapped.test/me"))
    #expect(error == expected)
  }

  @Test func send_throwsRemoteAPIError_whenTheTransportFails() async {
    let host = "failing.test"
    URLProtocolStub.stub(host: host, with: .failure(.timedOut))
    await #expect(throws: RemoteAPIError.timedOut(seconds: 15)) {
      try await makeSUT().send(URLRequest(url: URL(string: "http://\(host)/me")!))
    }
  }

  // MARK: - Over real HTTP on loopback

  @Test func signsInOverRealHTTP_withTheEmbeddedBackendBehindAPathPrefix() async throws {
    let backend = try TestBackend.make()
    let server = try await LoopbackHTTPServer.start { request in
      // The server mounts the API under /api/v1, as a reverse proxy would.
      guard request.pathSegments.starts(with: ["api", "v1"]) else {
        return BackendHTTPResponse(status: 404)
      }
      return await backend.handle(
        BackendHTTPRequest(
          method: request.method, pathSegments: Array(request.pathSegments.dropFirst(2)),
          query: request.query, headers: request.headers, body: request.body))
    }
    defer { server.cancel() }
    let api = HTTPAuthRemoteAPI(
      endpoint: APIEndpoint(baseURL: server.baseURL.appendingPathComponent("api/v1")),
      client: URLSessionHTTPClient())

    let token = try await api.signIn(
      username: EmbeddedBackend.demoUsername, password: EmbeddedBackend.demoPassword)
    let profile = try await api.fetchProfile(with: token)

    #expect(profile.username == "demo")
    #expect(server.requests == ["POST /api/v1/oauth/token", "GET /api/v1/me"])
  }

  @Test func reportsUnreachable_whenNothingListens() async throws {
    let port = try await LoopbackHTTPServer.closedPort()
    let client = URLSessionHTTPClient()
    await #expect {
      try await client.send(URLRequest(url: URL(string: "http://127.0.0.1:\(port)/me")!))
    } throws: { error in
      guard case RemoteAPIError.unreachable(let reason) = error else { return false }
      return reason.contains("127.0.0.1:\(port)")
    }
  }

  @Test func givesUpAfterItsTimeout_whenTheServerDoesNotAnswer() async throws {
    let release = AsyncStream<Void>.makeStream()
    let server = try await LoopbackHTTPServer.start { _ in
      for await _ in release.stream {}
      return BackendHTTPResponse(status: 200)
    }
    defer {
      release.continuation.finish()
      server.cancel()
    }
    // A short limit keeps the test quick; the app's is 15 s. Linux Foundation rounds a
    // limit below one second down to zero and fails at once, so 1 s is the shortest real one.
    let client = URLSessionHTTPClient(timeout: 1)

    await #expect(throws: RemoteAPIError.timedOut(seconds: 1)) {
      try await client.send(URLRequest(url: server.baseURL.appendingPathComponent("me")))
    }
  }

  // MARK: - Helpers

  private func makeSUT() -> URLSessionHTTPClient {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [URLProtocolStub.self]
    return URLSessionHTTPClient(configuration: configuration)
  }
}
