import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Backend
@testable import BackendServer

/// Several instances on one PostgreSQL database, in process: each its own store (pool,
/// listener) and backend, as separate `app serve` processes have. The clocks never move
/// unless a test says so: a long poll that answers did so because it was woken.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresInstancesTests {
  @Test func aLikeBackOnOneInstance_answersALongPollOnAnother_throughANotification()
    async throws
  {
    try await PostgresStores.with(instances: 2, notifications: true) { stores in
      let (a, b) = (stores[0], stores[1])
      let backendA = try await PostgresStores.backend(on: a, clock: ManualClock())
      let backendB = try await PostgresStores.backend(on: b, clock: ManualClock())
      let token = try await BackendCalls.signIn(backendA)
      let id = try await BackendCalls.firstPendingLikeID(backendB, token: token)
      try await waitUntil("A listens") { a.eventSignal.isLive }

      let poll = PendingAnswer(backendA, BackendCalls.get("/events?after=0&wait=30", token: token))
      try await waitUntil("the poll waits on A") { a.eventSignal.waiterCount == 1 }
      let liked = await backendB.handle(BackendCalls.post("/likes/\(id)/like", token: token))
      let answer = try await poll.answer(within: .seconds(5))

      #expect(liked.status == 200)
      #expect(answer.status == 200)
      let events = try BackendCalls.json(answer)["events"] as? [[String: Any]]
      #expect(events?.map { $0["type"] as? String } == ["mutualMatch"])
      #expect((events?.first?["item"] as? [String: Any])?["id"] as? String == id)
    }
  }

  @Test func withNotificationsOff_aPollOnAnotherInstance_findsTheLikeBackAtItsNextLook()
    async throws
  {
    try await PostgresStores.with(instances: 2, notifications: false) { stores in
      let clockA = ManualClock()
      let backendA = try await PostgresStores.backend(on: stores[0], clock: clockA)
      let backendB = try await PostgresStores.backend(on: stores[1], clock: ManualClock())
      let token = try await BackendCalls.signIn(backendA)
      let id = try await BackendCalls.firstPendingLikeID(backendB, token: token)

      let poll = PendingAnswer(backendA, BackendCalls.get("/events?after=0&wait=30", token: token))
      try await waitUntil("the poll waits on A") { stores[0].eventSignal.waiterCount == 1 }
      #expect(
        await backendB.handle(BackendCalls.post("/likes/\(id)/like", token: token)).status == 200)
      #expect(!poll.isAnswered, "nothing tells A")
      let nextLook = clockA.now.advanced(by: .seconds(1))
      try await waitUntil("A sleeps until its next look") { clockA.hasSleeper(until: nextLook) }
      clockA.advance(to: nextLook)

      let events =
        try BackendCalls.json(try await poll.answer(within: .seconds(5)))["events"]
        as? [[String: Any]]
      #expect(events?.map { $0["type"] as? String } == ["mutualMatch"])
    }
  }

  @Test func aLostListeningConnection_wakesThePolls_reconnects_andLosesNothing() async throws {
    try await PostgresStores.with(instances: 2, notifications: true) { stores, database in
      let (a, b) = (stores[0], stores[1])
      let backendA = try await PostgresStores.backend(on: a, clock: ManualClock())
      let backendB = try await PostgresStores.backend(on: b, clock: ManualClock())
      let token = try await BackendCalls.signIn(backendA)
      let id = try await BackendCalls.firstPendingLikeID(backendB, token: token)
      try await waitUntil("A listens") { a.eventSignal.isLive }
      let poll = PendingAnswer(backendA, BackendCalls.get("/events?after=0&wait=30", token: token))
      try await waitUntil("the poll waits on A") { a.eventSignal.waiterCount == 1 }

      // Both instances listen: both listening connections go.
      let cut = try await PostgresTestCluster.shared().psql(
        """
        SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%'
        """, database: database)
      try await waitUntil("A knows its listener is gone") { !a.eventSignal.isLive }
      try await waitUntil("A listens again", within: .seconds(15)) { a.eventSignal.isLive }
      try await waitUntil("the poll waits again") { a.eventSignal.waiterCount == 1 }
      let liked = await backendB.handle(BackendCalls.post("/likes/\(id)/like", token: token))
      let answer = try await poll.answer(within: .seconds(5))

      #expect(cut.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
      #expect(liked.status == 200)
      let events = try BackendCalls.json(answer)["events"] as? [[String: Any]]
      #expect(events?.map { $0["type"] as? String } == ["mutualMatch"])
    }
  }

  @Test func writersOnThreeInstances_aFollowerSeesEveryEventOnce_inOrder() async throws {
    try await PostgresStores.with(instances: 3) { stores in
      let accountID = "id-alice"
      let alice = AccountRecord(id: accountID, username: "alice", name: "Alice", passwordHash: "x")
      _ = try await stores[0].createAccount(alice)
      let likes = (0..<90).map {
        IncomingLike(id: "like-\($0)", userName: "Person \($0)", avatarURL: nil)
      }
      try await stores[0].seedLikesIfNeeded(accountID: accountID) { likes }

      // Each instance likes back its third of them, all at once, while a fourth task
      // follows `last` as a client does.
      let seen = try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
        for (index, store) in stores.enumerated() {
          group.addTask {
            for like in likes where Int(like.id.dropFirst(5))! % 3 == index {
              _ = try await store.matchLike(id: like.id, by: alice)
            }
            return []
          }
        }
        group.addTask {
          var seen: [(Int, String)] = []
          var last = 0
          while seen.count < likes.count {
            let found = try await stores[1].events(accountID: accountID, after: last)
            seen += found.events.map { ($0.seq, $0.person.id) }
            last = found.last
          }
          return seen
        }
        var all: [(Int, String)] = []
        for try await part in group { all += part }
        return all
      }

      #expect(seen.count == 90)
      #expect(Set(seen.map(\.1)) == Set(likes.map(\.id)), "every like back, once")
      #expect(seen.map(\.0) == Array(1...90), "numbered 1, 2, 3… in the order they were seen")
    }
  }

  @Test func madeUpLikes_areMadeOnce_byWhicheverInstanceComesFirst() async throws {
    try await PostgresStores.with(instances: 2) { stores in
      _ = try await stores[0].createAccount(
        AccountRecord(id: "id-alice", username: "alice", name: "Alice", passwordHash: "x"))
      let start = Date(timeIntervalSince1970: 1_800_000_000)
      _ = try await stores[0].generateDueLikes(
        accountID: "id-alice", now: start, interval: { 10 }, makeLike: { fatalError("none due") })
      let made = Count()

      try await withThrowingTaskGroup(of: Void.self) { group in
        for store in stores + stores {
          group.addTask {
            _ = try await store.generateDueLikes(
              accountID: "id-alice", now: start.addingTimeInterval(35), interval: { 10 },
              makeLike: {
                let index = made.add()
                return IncomingLike(id: "new-\(index)", userName: "New", avatarURL: nil)
              })
          }
        }
        try await group.waitForAll()
      }

      #expect(made.value == 3, "due at 10, 20 and 30 s: three, not three per caller")
      #expect(try await stores[1].events(accountID: "id-alice", after: 0).events.count == 3)
    }
  }

  @Test func instancesStartedTogether_onAnEmptyDatabase_allComeUp_andMigrateOnce()
    async throws
  {
    try await PostgresStores.with(instances: 5) { stores, database in
      let versions = try await PostgresTestCluster.shared().psql(
        "SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_version",
        database: database)
      #expect(versions.trimmingCharacters(in: .whitespacesAndNewlines) == "1,2,3", "each once")
      for store in stores { #expect(try await store.answers()) }
    }
  }

  @Test func connectionsTheDatabaseCuts_areReplaced_andRequestsGoOn() async throws {
    try await PostgresStores.with(instances: 1) { stores, database in
      let store = stores[0]
      // A restart, five times: the pool's connections all cut while idle.
      for round in 1...5 {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for _ in 0..<4 { group.addTask { _ = try await store.answers() } }
          try await group.waitForAll()
        }
        let cut = try await PostgresTestCluster.shared().psql(
          """
          SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
          """, database: database)
        #expect(Int(cut.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 1)

        // A read may still fail (an error, answered as a 500), sent before the server's
        // close reached the connection: at most one per connection cut. The next ones find
        // new connections. In a task of its own: a read that never answers (the bug
        // `rowsUnlessClosed` guards against) fails the test at the bound, instead of
        // holding the test run for ever.
        let (answered, failed) = (Count(), Count())
        Task {
          for _ in 0..<20 where answered.value < 5 {
            if (try? await store.answers()) == true { answered.add() } else { failed.add() }
          }
        }
        try await waitUntil("five reads answered after cut \(round)", within: .seconds(10)) {
          answered.value == 5
        }
        #expect(failed.value <= 4, "at most one read per connection cut fails")
      }
    }
  }

  /// postgres-nio drops a query written to a connection that has closed, and awaits its
  /// answer for ever. Such a connection refuses the query at once instead, as never sent,
  /// and the store's next statement goes out on another connection.
  @Test func aQueryOnAClosedConnection_isRefusedAtOnce_asNeverSent() async throws {
    try await PostgresStores.with { store in
      try await store.client.withConnection { connection in
        try await connection.close()
        await #expect(throws: PostgresConnectionClosed.self) {
          _ = try await connection.rowsUnlessClosed("SELECT 1", logger: store.logger)
        }
      }
      #expect(try await store.answers())
    }
  }

  /// The same for a prepared statement, which is sent from the connection's event loop.
  @Test func aPreparedStatementOnAClosedConnection_isRefusedAtOnce_andRunsOnAnOpenOne()
    async throws
  {
    try await PostgresStores.with { store in
      let statement = PostgresStatements.PendingLikes(accountID: "nobody", limit: 11, offset: 0)
      try await store.client.withConnection { connection in
        #expect(try await connection.rowsUnlessClosed(statement, logger: store.logger).isEmpty)
        try await connection.close()
        await #expect(throws: PostgresConnectionClosed.self) {
          _ = try await connection.rowsUnlessClosed(statement, logger: store.logger)
        }
      }
      #expect(try await store.answers())
    }
  }

  @Test func aThrottleHolds_whicheverInstanceIsAsked() async throws {
    try await PostgresStores.with(instances: 2) { stores in
      let now = TestNow()
      let limits = SignInLimits(freeFailures: 2)
      let first = try await PostgresStores.backend(
        on: stores[0], now: now, clock: ManualClock(), limits: limits)
      let second = try await PostgresStores.backend(
        on: stores[1], now: now, clock: ManualClock(), limits: limits)

      #expect(await BackendCalls.signIn(first, password: "wrong").status == 401)
      #expect(await BackendCalls.signIn(second, password: "wrong").status == 401)
      #expect(
        await BackendCalls.signIn(first, password: "wrong").status == 401,
        "the third starts the wait")
      let elsewhere = await BackendCalls.signIn(second, password: "demo-password")

      #expect(elsewhere.status == 429, "the other instance counts the same failures")
      now.advance(by: 1)
      #expect(await BackendCalls.signIn(second, password: "demo-password").status == 200)
    }
  }
}
