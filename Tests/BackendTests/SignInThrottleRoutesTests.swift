import Foundation
import TestSupport
import Testing

@testable import Backend

/// `POST /oauth/token` under guessing: failed sign-ins are throttled per account and per
/// address with `429 too_many_attempts` and a `Retry-After` that grows, on the backend's
/// injected clock; the right password works again once the wait is over.
@Suite(.timeLimit(.minutes(1))) struct SignInThrottleRoutesTests {
  @Test func fiveWrongPasswordsAreFree_theSixthStartsAWait_andTheRightOneWorksAfterIt()
    async throws
  {
    let now = TestNow()
    let backend = try TestBackend.make(now: now)

    for _ in 1...5 {
      #expect(await signIn(backend, "demo", "wrong-password").status == 401)
    }
    #expect(await signIn(backend, "demo", "wrong-password").status == 401)
    let throttled = await signIn(backend, "demo", "demo-password")

    #expect(throttled.status == 429)
    #expect(throttled.headers["Retry-After"] == "1")
    #expect(try json(throttled)["error"] as? String == "too_many_attempts")
    now.advance(by: 1)
    #expect(await signIn(backend, "demo", "demo-password").status == 200)
  }

  @Test func theWaitDoubles_withEachFailure_upToTheAccountsLongest() async throws {
    let now = TestNow()
    let backend = try TestBackend.make(
      now: now, limits: SignInLimits(freeFailures: 0, longestAccountWait: 8))

    var waits: [String?] = []
    for _ in 1...6 {
      #expect(await signIn(backend, "demo", "wrong-password").status == 401)
      let answer = await signIn(backend, "demo", "wrong-password")
      #expect(answer.status == 429)
      waits.append(answer.headers["Retry-After"])
      now.advance(by: TimeInterval(Int(answer.headers["Retry-After"] ?? "") ?? 0))
    }

    #expect(waits == ["1", "2", "4", "8", "8", "8"])
  }

  @Test func anUnknownUsername_isThrottledLikeAKnownOne() async throws {
    let backend = try TestBackend.make(limits: SignInLimits(freeFailures: 2))

    let answers = await (1...4).asyncMap { _ in
      await signIn(backend, "nobody", "any-password").status
    }

    // Two free failures; the third starts the wait, which the fourth meets.
    #expect(answers == [401, 401, 401, 429])
  }

  @Test func oneAddress_guessingManyAccounts_isThrottled_whileAnotherAddressIsNot()
    async throws
  {
    let backend = try TestBackend.make(
      limits: SignInLimits(freeFailures: 3, longestAccountWait: 60))

    for name in ["ann", "bob", "cid", "dee"] {
      #expect(await signIn(backend, name, "guess", from: "198.51.100.7").status == 401)
    }
    let sameAddress = await signIn(backend, "eve", "guess", from: "198.51.100.7")
    let otherAddress = await signIn(backend, "demo", "demo-password", from: "203.0.113.9")

    #expect(sameAddress.status == 429)
    #expect(otherAddress.status == 200)
  }

  @Test func aRightPassword_clearsTheAccount_butNotTheAddress() async throws {
    let now = TestNow()
    let backend = try TestBackend.make(now: now, limits: SignInLimits(freeFailures: 2))
    let address = "198.51.100.7"

    #expect(await signIn(backend, "demo", "wrong", from: address).status == 401)
    #expect(await signIn(backend, "demo", "wrong", from: address).status == 401)
    #expect(await signIn(backend, "demo", "demo-password", from: "203.0.113.9").status == 200)
    // The account starts afresh; the address still has its two failures, so one more
    // from it, on any account, starts its wait.
    #expect(await signIn(backend, "demo", "wrong", from: "203.0.113.9").status == 401)
    #expect(await signIn(backend, "nobody", "wrong", from: address).status == 401)
    #expect(await signIn(backend, "demo", "demo-password", from: address).status == 429)
    #expect(await signIn(backend, "demo", "demo-password", from: "203.0.113.9").status == 200)
  }

  @Test func failuresAreForgotten_afterFifteenQuietMinutes() async throws {
    let now = TestNow()
    let backend = try TestBackend.make(now: now, limits: SignInLimits(freeFailures: 1))

    #expect(await signIn(backend, "demo", "wrong").status == 401)
    now.advance(by: 15 * 60 + 1)
    #expect(await signIn(backend, "demo", "wrong").status == 401)

    #expect(await signIn(backend, "demo", "demo-password").status == 200)
  }

  @Test func twoProcessesOnOneDatabase_throttleTheSameGuesses_andARestartForgetsNothing()
    async throws
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "throttle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let now = TestNow()
    let open = {
      try await APIBackend.open(
        .sqliteFile(folder.appendingPathComponent("backend.sqlite")), now: { now.date },
        randomBytes: { [UInt8](repeating: 7, count: $0) }, clock: ContinuousClock(),
        passwordRounds: 1_000, demo: DemoPeople(), limits: SignInLimits(freeFailures: 2))
    }
    let first = try await open()
    let second = try await open()

    #expect(await signIn(first, "demo", "wrong").status == 401)
    #expect(await signIn(second, "demo", "wrong").status == 401)
    #expect(await signIn(first, "demo", "wrong").status == 401, "the third starts the wait")
    let elsewhere = await signIn(second, "demo", "demo-password")
    let restarted = await signIn(try await open(), "demo", "demo-password")

    #expect(elsewhere.status == 429, "the other process counts the same failures")
    #expect(restarted.status == 429, "a new process remembers them")
    now.advance(by: 1)
    #expect(await signIn(second, "demo", "demo-password").status == 200)
  }

  // MARK: - Helpers

  private func signIn(
    _ backend: APIBackend, _ username: String, _ password: String, from address: String? = nil
  ) async -> BackendHTTPResponse {
    let body = ["grant_type": "password", "username": username, "password": password]
    return await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["oauth", "token"],
        headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(body),
        remoteAddress: address))
  }

  private func json(_ response: BackendHTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
  }
}

extension Sequence {
  fileprivate func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
    var results: [T] = []
    for element in self { results.append(await transform(element)) }
    return results
  }
}
