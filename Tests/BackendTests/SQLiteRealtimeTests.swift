import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Backend

/// Long polls on a SQLite file that several processes share: two backends on one file stand
/// for two `app serve` instances (or two `app` processes on one data folder). SQLite tells
/// no process of another's commit; one watcher a process finds them, so a waiting poll costs
/// nothing until an event of its own comes.
@Suite(.timeLimit(.minutes(1))) struct SQLiteRealtimeTests {
  @Test func aLikeBackWrittenByAnotherProcess_reachesAPollHereWithinASecond() async throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clockA = ManualClock()
    let (storeA, backendA) = try await Self.open(folder, clock: clockA)
    let (_, backendB) = try await Self.open(folder, clock: ManualClock())
    let token = try await BackendCalls.signIn(backendA)
    let id = try await BackendCalls.firstPendingLikeID(backendB, token: token)

    let start = storeA.eventSignal.mark(Self.anyAccount)
    let poll = PendingAnswer(backendA, BackendCalls.get("/events?after=0&wait=30", token: token))
    try await Self.waitForTheWatchersFirstLook(storeA, polls: 1, since: start)
    #expect(
      await backendB.handle(BackendCalls.post("/likes/\(id)/like", token: token)).status == 200)
    #expect(!poll.isAnswered, "B's write signals B's polls only")
    let nextLook = clockA.now.advanced(by: .seconds(1))
    try await waitUntil("A's watcher sleeps until its next look") {
      clockA.hasSleeper(until: nextLook)
    }
    clockA.advance(to: nextLook)

    let answer = try await poll.answer(within: .seconds(5))
    let events = try BackendCalls.json(answer)["events"] as? [[String: Any]]
    #expect(events?.map { $0["type"] as? String } == ["mutualMatch"])
  }

  @Test func twentyWaitingPolls_costAboutOneReadASecond_andAnswerAtTheirLimit() async throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clock = ManualClock()
    let statements = Atomic<Int>(0)
    let (store, backend) = try await Self.open(folder, clock: clock) { _ in
      statements.add(1, ordering: .relaxed)
    }
    let token = try await BackendCalls.signIn(backend)
    let start = store.eventSignal.mark(Self.anyAccount)
    let polls = (0..<20).map { _ in
      PendingAnswer(backend, BackendCalls.get("/events?after=1000&wait=10", token: token))
    }
    try await Self.waitForTheWatchersFirstLook(store, polls: 20, since: start)
    // A poll's time limit sleeps in a task beside its wait (`EventSignal.wait`), so a poll
    // may wait before its limit sleeps: counted once all twenty and the watcher sleep. Taken
    // sooner, the count once came out 20, matched only by chance for two seconds, and then
    // never again.
    let sleepers = 20 + 1
    try await waitUntil("the polls' limits and the watcher sleep on the clock") {
      clock.sleeperCount == sleepers
    }

    let before = statements.load(ordering: .relaxed)
    // Nine seconds, a second at a time. After each, whatever the second woke has run and
    // sleeps on the clock again before the next: the polls, had they woken, would have read.
    for second in 1...9 {
      try await waitUntil("everything sleeps again after \(second - 1) s") {
        clock.sleeperCount == sleepers
          && clock.hasSleeper(until: .init(offset: .seconds(second)))
      }
      clock.advance(by: .seconds(1))
    }
    try await waitUntil("everything sleeps again after 9 s") {
      clock.sleeperCount == sleepers && clock.hasSleeper(until: .init(offset: .seconds(10)))
    }
    let during = statements.load(ordering: .relaxed) - before

    // Each poll used to read (and write its like generator) every second: over 20 × 9.
    // One read a second: four statements, its SELECT and those GRDB runs around a read.
    #expect(during <= 9 * 4, "one read a second, for the watcher; not one per poll")
    #expect(polls.allSatisfy { !$0.isAnswered }, "nothing came, so nobody answers early")
    clock.advance(by: .seconds(1))
    try await waitUntil("the polls' ten seconds are over") { polls.allSatisfy(\.isAnswered) }
  }

  /// A poll whose caller has gone (a command that ended, a screen left) must end, not read
  /// again at once each time its cancelled wait returned, until its 30 s were up.
  @Test func aCancelledPoll_answersAtOnce_withoutReadingAgain() async throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let statements = Atomic<Int>(0)
    let (store, backend) = try await Self.open(folder, clock: ManualClock()) { _ in
      statements.add(1, ordering: .relaxed)
    }
    let token = try await BackendCalls.signIn(backend)
    let start = store.eventSignal.mark(Self.anyAccount)
    let poll = PendingAnswer(backend, BackendCalls.get("/events?after=1000&wait=30", token: token))
    try await Self.waitForTheWatchersFirstLook(store, polls: 1, since: start)
    let before = statements.load(ordering: .relaxed)

    poll.cancel()
    let answer = try await poll.answer(within: .seconds(5))

    #expect(answer.status == 200)
    #expect((try BackendCalls.json(answer)["events"] as? [[String: Any]])?.isEmpty == true)
    #expect(statements.load(ordering: .relaxed) == before, "nothing read after the cancel")
  }

  /// Closing the backend (an in-process command's end, a server's stop) waits for the
  /// requests under way, refuses later ones, and leaves the one file: SQLite's last
  /// connection copies its log back and deletes the `-wal` and `-shm` files.
  @Test func closing_waitsForTheRequestsUnderWay_thenRefusesAndLeavesOneFile() async throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (store, backend) = try await Self.open(folder, clock: ManualClock())
    let token = try await BackendCalls.signIn(backend)
    let poll = PendingAnswer(backend, BackendCalls.get("/events?after=1000&wait=30", token: token))
    try await waitUntil("the poll waits") { store.eventSignal.waiterCount == 1 }
    let done = CallLog<String>()

    let closing = Task {
      await backend.close()
      done.append("closed")
    }
    defer { closing.cancel() }
    try? await waitUntil("nothing: the poll still runs", within: .milliseconds(50)) {
      !done.all.isEmpty
    }
    #expect(done.all.isEmpty, "the close waits for the poll")
    let whileClosing = await backend.handle(BackendCalls.get("/me", token: token))
    poll.cancel()
    try await waitUntil("the close, once the poll ended", within: .seconds(5)) {
      !done.all.isEmpty
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)

    #expect(whileClosing.status == 503)
    #expect(try await poll.answer(within: .seconds(1)).status == 200)
    #expect(files.contains("backend.sqlite"), "\(files)")
    #expect(!files.contains("backend.sqlite-wal") && !files.contains("backend.sqlite-shm"))
  }

  // MARK: - Helpers

  /// An account no poll waits for: its mark moves only when every poll is woken.
  private static let anyAccount = "nobody"

  /// Returns once `count` polls wait after the watcher's first look. The first poll starts
  /// the watcher, which reads the highest event and then wakes every poll to read again
  /// (`SQLiteEventWatcher`); a poll seen waiting before that is about to read once more,
  /// and the watcher's read itself may not have run yet. The look moves every account's
  /// mark, and a poll registers only with the current mark, so once the mark has moved and
  /// `count` polls wait, nothing runs until a signal or the clock.
  private static func waitForTheWatchersFirstLook(
    _ store: BackendDatabase, polls count: Int, since start: EventSignal.Mark
  ) async throws {
    try await waitUntil("\(count) polls wait after the watcher's first look") {
      store.eventSignal.mark(anyAccount) != start && store.eventSignal.waiterCount == count
    }
  }

  private static func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A backend on the folder's file, with the demo account; `statementTook` is told of each
  /// statement it runs.
  private static func open(
    _ folder: URL, clock: ManualClock,
    statementTook: (@Sendable (Duration) -> Void)? = nil
  ) async throws -> (BackendDatabase, APIBackend) {
    let store = try await BackendDatabase.open(
      at: folder.appendingPathComponent("backend.sqlite"), statementTook: statementTook)
    let backend = try APIBackend(
      store: store, now: { Date(timeIntervalSince1970: 1_800_000_000) },
      randomBytes: { count in (0..<count).map { _ in UInt8.random(in: .min ... .max) } },
      passwordRounds: 1_000, clock: clock, demo: DemoPeople(likeInterval: 1_000...1_000))
    try await backend.seedDemoAccountIfEmpty()
    return (store, backend)
  }
}
