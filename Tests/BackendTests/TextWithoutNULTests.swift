import Foundation
import TestSupport
import Testing

@testable import Backend

/// Text that holds U+0000, which PostgreSQL's `text` cannot store: both stores answer it the
/// same way, a `422` (an envelope `400` for messages) that names the field for a body, and
/// "unknown" for a path or query value, never a `500`, and nothing of it is stored.
@Suite(.timeLimit(.minutes(2))) struct TextWithoutNULTests {
  @Test func onSQLite() async throws {
    try await Self.textHoldingNUL_isRefusedOrUnknown_andNothingIsStored(TestBackend.make())
  }

  @Test(.enabled(if: PostgresTestCluster.isAvailable)) func onPostgreSQL() async throws {
    try await PostgresStores.with { store in
      let backend = try await PostgresStores.backend(on: store, clock: ContinuousClock())
      try await Self.textHoldingNUL_isRefusedOrUnknown_andNothingIsStored(backend)
    }
  }

  static func textHoldingNUL_isRefusedOrUnknown_andNothingIsStored(_ backend: APIBackend)
    async throws
  {
    let token = try await BackendCalls.signIn(backend)
    let call = Call(backend: backend, token: token)

    // Bodies: refused, naming the field.
    for (field, body) in [
      ("message", #"{"user":"bob","operation":"add_message","subject":"s","message":"a\u0000b"}"#),
      ("user", #"{"user":"b\u0000ob","operation":"add_message","subject":"s","message":"m"}"#),
    ] {
      let answer = try await call.envelope("POST", ["messages"], json: body)
      #expect(answer.statusCode == 400, "\(field)")
      #expect(answer.error == "\(field) must not contain the character U+0000")
    }
    for (path, field, body) in [
      (
        ["auth", "signup"], "password",
        #"{"username":"zed","password":"secret\u0000word","name":"Z"}"#
      ),
      (
        ["auth", "signup"], "name", #"{"username":"zed","password":"secret-word","name":"Z\u0000"}"#
      ),
      (
        ["oauth", "token"], "username",
        #"{"grant_type":"password","username":"demo\u0000","password":"p"}"#
      ),
      (["push", "register"], "uuid", #"{"uuid":"d\u0000","session":"s","token":"t"}"#),
      (["push", "deregister"], "uuid", #"{"uuid":"d\u0000"}"#),
      (["vendor", "register"], "uuid", #"{"uuid":"d\u0000"}"#),
      (["vendor", "deregister"], "uuid", #"{"uuid":"d\u0000"}"#),
    ] {
      let answer = await call.send("POST", path, json: body)
      #expect(answer.status == 422, "\(path) \(field)")
      #expect(
        try BackendCalls.json(answer)["error_description"] as? String
          == "\(field) must not contain the character U+0000", "\(path)")
    }

    // Path and query values: nothing stored has them, so they are unknown.
    let person = try await call.envelope("GET", ["messages", "b\0ob"])
    #expect(person.statusCode == 404)
    #expect(await call.send("POST", ["likes", "x\0", "like"]).status == 404)
    #expect(await call.send("DELETE", ["likes", "x\0"]).status == 404)
    let vendor = await call.send("GET", ["vendor", "status"], query: ["uuid": "d\0"])
    #expect(vendor.status == 200)
    #expect(try BackendCalls.json(vendor)["status"] as? String == "unregister")

    // Nothing of the refused bodies was stored, and the account still works.
    let bob = try await call.envelope("GET", ["messages", "bob"])
    #expect(bob.statusCode == 200)
    #expect(!bob.body.contains("a\0b"))
    #expect(
      await call.send(
        "POST", ["auth", "signup"], json: #"{"username":"zed","password":"secret-word","name":"Z"}"#
      ).status == 201)
  }

  private struct Call {
    let backend: APIBackend
    let token: String

    func send(
      _ method: String, _ path: [String], query: [String: String] = [:], json: String? = nil
    ) async -> BackendHTTPResponse {
      var headers = ["Authorization": "Bearer \(token)"]
      if json != nil { headers["Content-Type"] = "application/json" }
      return await backend.handle(
        BackendHTTPRequest(
          method: method, pathSegments: path, query: query, headers: headers,
          body: Data((json ?? "").utf8)))
    }

    /// A messages answer: the envelope's status, body and error, after the HTTP status,
    /// which is the envelope's for a 400 and 200 otherwise.
    func envelope(
      _ method: String, _ path: [String], json: String? = nil
    ) async throws -> (statusCode: Int, body: String, error: String?) {
      let answer = await send(method, path, json: json)
      let envelope = try BackendCalls.json(answer)
      let body = try #require(envelope["body"] as? String)
      let error =
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?[
          "error"] as? String
      let statusCode = try #require(envelope["statusCode"] as? Int)
      #expect(answer.status == (statusCode == 400 ? 400 : 200))
      return (statusCode, body, error)
    }
  }
}
