import Domain
import Presentation
import Synchronization
import TestSupport
import Testing

/// The session's one reachability: fed by how requests went, read by the prompt and the
/// realtime watch's pauses.
@Suite(.timeLimit(.minutes(1))) struct ServerReachabilityTests {
  private static let refused = RemoteAPIError.unreachable(reason: "could not connect to h:1")

  @Test func oneFailureIsReconnecting_twoAreOffline_andAnAnswerIsOnline() async throws {
    let sut = ServerReachability()
    let changes = sut.changes()

    sut.serverOutOfReach(Self.refused)
    #expect(sut.status == .reconnecting, "one failure may be a blip")
    sut.serverOutOfReach(.server(status: 502, code: nil, description: nil))
    #expect(sut.status == .offline)
    #expect(sut.lastFailure == .server(status: 502, code: nil, description: nil))
    sut.serverOutOfReach(Self.refused)
    sut.serverAnswered()
    sut.serverAnswered()
    #expect(sut.status == .online)

    var seen: [ServerReachability.Status] = []
    for await change in changes {
      seen.append(change)
      if seen.count == 3 { break }
    }
    #expect(seen == [.reconnecting, .offline, .online], "each change once, in order")
  }

  @Test func aPause_endsEarly_whenTheServerComesBack() async throws {
    let clock = ManualClock()
    let sut = ServerReachability(.offline)
    let paused = Task { try await sut.pause(for: .seconds(30), on: clock) }

    try await waitUntil("the pause watches the status") { sut.watcherCount == 1 }
    sut.serverAnswered()

    try await paused.value
    #expect(clock.now == .init(offset: .zero), "no time had to pass")
    try await waitUntil("the pause stopped watching") { sut.watcherCount == 0 }
  }

  @Test func aPause_runsItsFullLength_whileTheServerStaysAsItWas() async throws {
    let clock = RecordingClock()
    let sut = ServerReachability()  // online: a 500 from a server that answers
    let ended = Mutex(false)
    let paused = Task {
      try await sut.pause(for: .seconds(4), on: clock)
      ended.withLock { $0 = true }
    }

    try await waitUntil("the pause watches the status and sleeps") {
      sut.watcherCount == 1 && clock.isAsleep(sleeps: 1)
    }
    sut.serverAnswered()  // no change: still online
    clock.advance(by: .milliseconds(3_999))
    #expect(!ended.withLock { $0 })
    #expect(clock.base.nextDeadline != nil, "the pause still sleeps at 3.999 s")
    clock.advance(by: .milliseconds(1))
    try await paused.value
    #expect(ended.withLock { $0 })
  }

  @Test func offlineOnASilentServer_oneRequestAsks_andTheOthersFailAtOnce() {
    let sut = ServerReachability()
    sut.serverOutOfReach(.timedOut(seconds: 15))
    sut.serverOutOfReach(.timedOut(seconds: 15))

    let probe = sut.requestStarting()
    let command = sut.requestStarting()
    sut.requestEnded()
    let afterThat = sut.requestStarting()

    #expect(probe == nil, "one request asks the server")
    #expect(
      command
        == .unreachable(reason: "it is still not answering (the last try: no answer within 15 s)"),
      "another would wait out the same time limit: it fails at once")
    #expect(afterThat == nil, "with nobody asking, the next request asks")
  }

  @Test(arguments: [
    RemoteAPIError.unreachable(reason: "could not connect to h:1"),
    .unavailable(retryAfter: nil, description: nil),
  ])
  func offlineOnAServerThatRefusesAtOnce_everyRequestIsSent(_ failure: RemoteAPIError) {
    let sut = ServerReachability()
    sut.serverOutOfReach(failure)
    sut.serverOutOfReach(failure)

    #expect(sut.requestStarting() == nil)
    #expect(sut.requestStarting() == nil, "a refusal costs no wait: a command's requests all go")
  }

  @Test func onlineOrReconnecting_everyRequestIsSent() {
    let sut = ServerReachability()
    #expect(sut.requestStarting() == nil)
    sut.serverOutOfReach(.timedOut(seconds: 15))
    #expect(sut.requestStarting() == nil, "one failure may be a blip")
  }

  @Test func aCancelledPause_throws() async throws {
    let sut = ServerReachability(.offline)
    let paused = Task { try await sut.pause(for: .seconds(30), on: ManualClock()) }
    try await waitUntil("the pause watches the status") { sut.watcherCount == 1 }
    paused.cancel()
    await #expect(throws: CancellationError.self) { try await paused.value }
  }
}
