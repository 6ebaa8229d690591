import Data
import Domain
import Synchronization
import TestSupport
import Testing

/// The watch through its server's life: whatever the server does (a dropped connection, a
/// 500, a restart with its events reset), the stream goes on, says a run of failures once
/// and its end once; only the end of the session or a request the server calls wrong end it.
@Suite(.timeLimit(.minutes(1))) struct LongPollRealtimeRecoveryTests {
  private static let ana = LikedUser(id: "a-1", userName: "Ana", avatarURL: nil)
  private static let ben = LikedUser(id: "b-1", userName: "Ben", avatarURL: nil)

  @Test func aDroppedConnectionAnd500s_areRetried_andTheEventsAfterThemArrive() async throws {
    let server = ScriptedEventsServer([
      .batch([], last: 4),
      .failure(RemoteAPIError.unreachable(reason: "closed the connection before answering")),
      .failure(RemoteAPIError.server(status: 500, code: "internal", description: nil)),
      .batch([.likedYouInserted(Self.ana)], last: 5),
    ])
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock())

    let signals = try await Self.first(1, eventsOf: sut)

    #expect(signals.events == [.likedYouInserted(Self.ana)])
    #expect(server.afters.starts(with: [Int.max, 4, 4, 4]), "each try resumes after the last seen")
    #expect(
      server.waits.starts(with: [0, 10, 0, 0]),
      "after a failure a poll asks without waiting: a server back answers it at once")
    #expect(signals.news == ["watching from 4"], "two failures are a blip, not news")
  }

  @Test func aRunOfFailures_isSaidOnce_andItsEndOnce() async throws {
    let failure = RemoteAPIError.server(status: 500, code: "internal", description: nil)
    let server = ScriptedEventsServer(
      [.batch([], last: 0)] + Array(repeating: .failure(failure), count: 6) + [
        .batch([.likedYouInserted(Self.ana)], last: 1)
      ])
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock())

    let signals = try await Self.first(1, eventsOf: sut)

    #expect(signals.news == ["watching from 0", "interrupted: HTTP 500 (internal)", "resumed"])
    #expect(signals.events == [.likedYouInserted(Self.ana)])
  }

  @Test func aServerWhoseEventsWereReset_isFollowedFromItsNewLast() async throws {
    let server = ScriptedEventsServer([
      .batch([], last: 40),
      .failure(RemoteAPIError.unreachable(reason: "could not connect")),
      .batch([], last: 2),  // restarted on a new database: 2 < 40
      .batch([.likedYouInserted(Self.ben)], last: 3),
    ])
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock())

    let signals = try await Self.first(1, eventsOf: sut)

    #expect(signals.news == ["watching from 40", "serverReset to 2"])
    #expect(server.afters.starts(with: [Int.max, 40, 40, 2]), "from the reset server's own last")
    #expect(signals.events == [.likedYouInserted(Self.ben)])
  }

  @Test(arguments: [
    RemoteAPIError.server(status: 400, code: "invalid_request", description: nil),
    .server(status: 404, code: "not_found", description: nil),
  ])
  func aRequestTheServerCallsWrong_endsTheStreamWithIt(_ wrong: RemoteAPIError) async {
    let server = ScriptedEventsServer([.batch([], last: 0), .failure(wrong)])
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock())

    await #expect(throws: wrong) {
      for try await _ in sut.events() {}
    }
  }

  @Test func aFailedStart_isRetriedToo() async throws {
    let server = ScriptedEventsServer([
      .failure(RemoteAPIError.unavailable(retryAfter: 1, description: nil)),
      .batch([], last: 7),
      .batch([.mutualMatch(Self.ana)], last: 8),
    ])
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock())

    let signals = try await Self.first(1, eventsOf: sut)

    #expect(signals.events == [.mutualMatch(Self.ana)])
    #expect(server.afters.starts(with: [Int.max, Int.max, 7]))
  }

  @Test func thePauses_runOnTheGivenPause_withTheJitterGiven() async throws {
    let failure = RemoteAPIError.unreachable(reason: "could not connect")
    let server = ScriptedEventsServer(
      [.batch([], last: 0)] + Array(repeating: .failure(failure), count: 8) + [
        .batch([.likedYouInserted(Self.ana)], last: 1)
      ])
    let pauses = Mutex<[Duration]>([])
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock(),
      pause: { duration in pauses.withLock { $0.append(duration) } }, random: { 0.5 })

    _ = try await Self.first(1, eventsOf: sut)

    #expect(
      pauses.withLock { $0 }
        == [1, 1.75, 3.5, 7, 14, 26.25, 26.25, 26.25].map { Duration.milliseconds(Int($0 * 1000)) })
  }

  @Test func a503WithRetryAfter_isWaitedOut_thenThePollComesBack() async throws {
    let server = ScriptedEventsServer([
      .batch([], last: 0),
      .failure(RemoteAPIError.unavailable(retryAfter: 5, description: nil)),
      .failure(RemoteAPIError.unavailable(retryAfter: 120, description: nil)),
      .failure(RemoteAPIError.unavailable(retryAfter: nil, description: nil)),
      .batch([.likedYouInserted(Self.ana)], last: 1),
    ])
    let pauses = Mutex<[Duration]>([])
    let sut = LongPollRealtimeEventsService(
      remote: server, access: signedIn(), clock: InstantClock(),
      pause: { duration in pauses.withLock { $0.append(duration) } })

    let signals = try await Self.first(1, eventsOf: sut)

    #expect(signals.events == [.likedYouInserted(Self.ana)])
    #expect(
      pauses.withLock { $0 } == [.seconds(5), .seconds(30), .seconds(4)],
      "the server's wait, up to the longest pause; without one, the usual backoff")
  }

  private struct Signals {
    var events: [RealtimeEvent] = []
    var news: [String] = []
  }

  /// Reads the stream until `count` events came, with the news between them.
  private static func first(_ count: Int, eventsOf sut: LongPollRealtimeEventsService)
    async throws -> Signals
  {
    var signals = Signals()
    for try await signal in sut.events() {
      switch signal {
      case .watching(let last): signals.news.append("watching from \(last)")
      case .event(let event, _): signals.events.append(event)
      case .interrupted(let error): signals.news.append("interrupted: \(error)")
      case .resumed: signals.news.append("resumed")
      case .serverReset(let last): signals.news.append("serverReset to \(last)")
      }
      if signals.events.count == count { break }
    }
    return signals
  }

  private func signedIn() -> SignedInAccess {
    SignedInAccess(
      dataStore: InMemoryUserSessionDataStore(
        RemoteUserSession(username: "me", accessToken: AccessToken("t"))))
  }
}

/// A server that answers the polls in the order given, then waits until the poll is
/// cancelled; it records the `after` and the `wait` of every poll.
private final class ScriptedEventsServer: RealtimeEventsRemoteAPI {
  enum Answer: Sendable {
    case batch([RealtimeEvent], last: Int)
    case failure(any Error)
  }

  private let script: Mutex<(answers: [Answer], afters: [Int], waits: [Int])>

  init(_ answers: [Answer]) {
    script = Mutex((answers, [], []))
  }

  var afters: [Int] { script.withLock { $0.afters } }
  var waits: [Int] { script.withLock { $0.waits } }

  func fetchEvents(after: Int, wait: Int, token: AccessToken) async throws -> RealtimeEventBatch {
    let answer: Answer? = script.withLock { script in
      script.afters.append(after)
      script.waits.append(wait)
      return script.answers.isEmpty ? nil : script.answers.removeFirst()
    }
    switch answer {
    case .batch(let events, let last):
      // Numbered up to `last`, as the server numbers them.
      let first = last - events.count + 1
      return RealtimeEventBatch(
        events: events.enumerated().map { NumberedEvent(seq: first + $0.offset, $0.element) },
        last: last)
    case .failure(let error): throw error
    case nil:
      // Nothing more to say: wait as a long poll does, until cancelled.
      let (waiting, keep) = AsyncStream<Void>.makeStream()
      for await _ in waiting {}
      withExtendedLifetime(keep) {}
      throw CancellationError()
    }
  }
}
