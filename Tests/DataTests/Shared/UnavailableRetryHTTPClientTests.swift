import Contract
import Data
import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

/// A read answered 503 is asked once more after the server's `Retry-After`, on the clock; a
/// write never is, nor a read whose wait is longer than the client waits.
@Suite(.timeLimit(.minutes(1))) struct UnavailableRetryHTTPClientTests {
  private let endpoint = APIEndpoint(baseURL: URL(string: "https://api.example.test")!)

  @Test func aRead_isAskedAgain_afterTheServersWait() async throws {
    let answers = Mutex([503, 200])
    let stub = HTTPClientStub(retryAfter: { $0 == 503 ? 3 : nil }) { _ in
      (answers.withLock { $0.removeFirst() }, "{}")
    }
    let clock = ManualClock()
    let client = UnavailableRetryHTTPClient(stub, clock: clock)

    let answer = Task { try await client.send(HTTPRequest(.mutuals, on: endpoint)) }
    // The wait's deadline is taken when the client falls asleep: move time only after that.
    try await waitUntil("the client waits after the first answer") { clock.nextDeadline != nil }
    clock.advance(by: .seconds(2))
    #expect(stub.requests.count == 1, "not before the 3 s the server asked for")
    #expect(clock.nextDeadline != nil, "still waiting at 2 s")
    clock.advance(by: .seconds(1))

    #expect(try await answer.value.status == 200)
    #expect(stub.requests.count == 2)
  }

  @Test func aSecond503_isTheAnswer() async throws {
    let stub = HTTPClientStub(retryAfter: { _ in 1 }) { _ in (503, "{}") }
    let client = UnavailableRetryHTTPClient(stub, clock: InstantClock())

    let answer = try await client.send(HTTPRequest(.mutuals, on: endpoint))

    #expect(answer.status == 503)
    #expect(stub.requests.count == 2)
  }

  @Test(arguments: [APIRoute.addMessage, .skipLike(id: "x"), .pushRegister])
  func aWrite_isNeverSentTwice(route: APIRoute) async throws {
    let stub = HTTPClientStub(retryAfter: { _ in 1 }) { _ in (503, "{}") }
    let client = UnavailableRetryHTTPClient(stub, clock: InstantClock())

    let answer = try await client.send(HTTPRequest(route, on: endpoint))

    #expect(answer.status == 503)
    #expect(stub.requests.count == 1)
  }

  @Test func aWaitLongerThanFifteenSeconds_isReported_notWaitedFor() async throws {
    let stub = HTTPClientStub(retryAfter: { _ in 16 }) { _ in (503, "{}") }
    let client = UnavailableRetryHTTPClient(stub, clock: InstantClock())

    let answer = try await client.send(HTTPRequest(.mutuals, on: endpoint))

    #expect(answer.status == 503)
    #expect(answer.retryAfter == 16)
    #expect(stub.requests.count == 1)
  }
}
