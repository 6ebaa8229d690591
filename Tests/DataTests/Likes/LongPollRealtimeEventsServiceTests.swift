import Data
import Domain
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct LongPollRealtimeEventsServiceTests {
  @Test func tenThousandEvents_arriveInOrder_noneLostNoneTwice_acrossReconnects() async throws {
    let server = EventsServerStub(total: 10_000, failEvery: 7)
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock())

    var received: [String] = []
    for try await signal in sut.events() {
      guard case .event(.likedYouInserted(let user), _) = signal else { continue }
      received.append(user.id)
      if received.count == 10_000 { break }
    }

    #expect(received == (1...10_000).map { "id-\($0)" })
    #expect(server.failures > 20, "the reconnects really happened")
  }

  @Test func aFailedPoll_isRetriedAfterAPauseThatGrows() async throws {
    let clock = RecordingClock()
    let server = EventsServerStub(total: 1, failEvery: 0, failFirstPolls: 2)
    let sut = LongPollRealtimeEventsService(remote: server, access: signedIn(), clock: clock)
    let stream = sut.events()
    let consumer = Task { () -> RealtimeEvent? in
      for try await signal in stream {
        if case .event(let event, _) = signal { return event }
      }
      return nil
    }

    try await server.waitForPolls(2)  // the start, then the first failure
    try await waitUntil("the service pauses after the failure") { clock.isAsleep(sleeps: 1) }
    clock.advance(by: .milliseconds(999))
    #expect(server.polls == 2, "no retry before 1 s")
    #expect(clock.base.nextDeadline != nil, "the pause still sleeps at 999 ms")
    clock.advance(by: .milliseconds(1))
    try await server.waitForPolls(3)  // the second failure
    try await waitUntil("the service pauses again") { clock.isAsleep(sleeps: 2) }
    clock.advance(by: .milliseconds(1_999))
    #expect(server.polls == 3, "the next pause is 2 s")
    #expect(clock.base.nextDeadline != nil, "the second pause still sleeps at 1.999 s")
    clock.advance(by: .milliseconds(1))

    #expect(
      try await consumer.value
        == .likedYouInserted(LikedUser(id: "id-1", userName: "n", avatarURL: nil)))
  }

  @Test func aSessionThatEnds_endsTheStreamWithTheReason() async {
    let server = EventsServerStub(total: 0, failEvery: 0, unauthorized: true)
    let store = InMemoryUserSessionDataStore(
      RemoteUserSession(username: "me", accessToken: AccessToken("t")))
    let sut = LongPollRealtimeEventsService(
      remote: server, access: SignedInAccess(dataStore: store), clock: InstantClock())

    await #expect(throws: SessionError.expired(username: "me")) {
      for try await _ in sut.events() {}
    }
  }

  private func signedIn() -> SignedInAccess {
    SignedInAccess(
      dataStore: InMemoryUserSessionDataStore(
        RemoteUserSession(username: "me", accessToken: AccessToken("t"))))
  }
}

/// A server whose events appear a few at a time, numbered 1, 2, 3…, and that fails now and
/// then as a flaky network does.
private final class EventsServerStub: RealtimeEventsRemoteAPI {
  private struct State {
    var produced = 0
    var polls = 0
    var failures = 0
  }

  private let state = Mutex(State())
  private let total: Int
  private let failEvery: Int
  private let failFirstPolls: Int
  private let unauthorized: Bool

  init(total: Int, failEvery: Int, failFirstPolls: Int = 0, unauthorized: Bool = false) {
    self.total = total
    self.failEvery = failEvery
    self.failFirstPolls = failFirstPolls
    self.unauthorized = unauthorized
  }

  var polls: Int { state.withLock { $0.polls } }
  var failures: Int { state.withLock { $0.failures } }

  func waitForPolls(_ count: Int) async throws {
    try await waitUntil("\(count) polls were made") { polls >= count }
  }

  func fetchEvents(after: Int, wait: Int, token: AccessToken) async throws -> RealtimeEventBatch {
    if unauthorized { throw RemoteAPIError.unauthorized }
    let answer: Result<RealtimeEventBatch, RemoteAPIError> = state.withLock { state in
      state.polls += 1
      let isStart = after == Int.max
      let failing =
        (!isStart && state.polls <= failFirstPolls + 1)
        || (failEvery > 0 && !isStart && state.polls % failEvery == 0)
      if failing {
        state.failures += 1
        return .failure(.unreachable(reason: "flaky"))
      }
      if isStart { return .success(RealtimeEventBatch(events: [], last: state.produced)) }
      state.produced = min(total, state.produced + (state.polls * 37 % 97) + 1)
      let events = (after + 1...max(after + 1, state.produced)).filter { $0 <= state.produced }
        .map {
          NumberedEvent(
            seq: $0, .likedYouInserted(LikedUser(id: "id-\($0)", userName: "n", avatarURL: nil)))
        }
      return .success(RealtimeEventBatch(events: events, last: state.produced))
    }
    return try answer.get()
  }
}
