import Backend
import Contract
import Foundation
import TestSupport
import Testing

/// What a stranger's request that is not the contract's gets from the backend, as the wire
/// has it: a `405` that lists the methods a path takes, a `404` for a path it does not have,
/// and a `422` for a query out of range only after the token is checked.
@Suite(.timeLimit(.minutes(1))) struct APIBackendRoutingTests {
  private func answer(
    _ method: String, _ target: String, headers: [String: String] = [:]
  ) async throws -> BackendHTTPResponse {
    let backend = try TestBackend.make()
    return await backend.handle(
      BackendHTTPRequest(
        method: method, target: RequestTarget(parsing: Substring(target)), headers: headers))
  }

  private func errorCode(_ answer: BackendHTTPResponse) throws -> String? {
    let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
    return object?["error"] as? String
  }

  @Test(arguments: [
    ("PUT", "/messages", "GET, POST"), ("GET", "/oauth/token", "POST"),
    ("PATCH", "/likes/someone", "DELETE"), ("DELETE", "/me", "GET"),
    ("POST", "/vendor/status", "GET"),
  ])
  func aMethodThePathDoesNotTake_is405_withAllow(method: String, path: String, allow: String)
    async throws
  {
    let answer = try await answer(method, path)

    #expect(answer.status == 405)
    #expect(answer.headers["Allow"] == allow)
    #expect(try errorCode(answer) == "method_not_allowed")
  }

  @Test func aPathOutsideTheContract_is404() async throws {
    let answer = try await answer("GET", "/likes/a/b/c")

    #expect(answer.status == 404)
    #expect(try errorCode(answer) == "not_found")
  }

  @Test func aBadQueryWithoutAToken_is401_beforeItIs422() async throws {
    #expect(try await answer("GET", "/likes?page=0&batchSize=10").status == 401)
  }

  @Test func eventsWithoutWait_answerAtOnce_asTheContractSays() async throws {
    let backend = try TestBackend.make()
    let signedIn = await backend.handle(
      APIRequest(
        .issueToken, headers: ["Content-Type": "application/json"],
        body: Data(
          #"{"grant_type":"password","username":"demo","password":"demo-password"}"#.utf8)))
    let object = try JSONSerialization.jsonObject(with: signedIn.body) as? [String: Any]
    let token = try #require(object?["access_token"] as? String)

    let answer = await backend.handle(
      BackendHTTPRequest(
        method: "GET", target: RequestTarget(parsing: "/events?after=0"),
        headers: ["Authorization": "Bearer \(token)"]))

    #expect(answer.status == 200)
  }

  @Test func healthAndMetrics_areRoutesOfTheContractToo() async throws {
    #expect(try await answer("GET", "/healthz").status == 200)
    // In process nothing is counted: there is nothing to show.
    #expect(try await answer("GET", "/metrics").status == 404)
  }
}
