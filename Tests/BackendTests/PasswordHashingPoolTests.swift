import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Backend

/// The hashing pool runs at most its threads' worth of hashes at once and refuses, at once,
/// a caller beyond its queue: what keeps a sign-in storm from taking every core.
@Suite(.timeLimit(.minutes(1))) struct PasswordHashingPoolTests {
  @Test func aFullQueue_refusesAtOnce_andTheAdmittedOnesStillFinish() async throws {
    let pool = PasswordHashingPool(threads: 1, queueLimit: 1)
    let gate = Gate()

    let first = Task {
      try await pool.run {
        gate.wait()
        return "first"
      }
    }
    try await waitUntil("the first hash holds the only thread") { gate.isWaiting }
    let second = Task { try await pool.run { "second" } }
    try await waitUntil("the second hash waits in the queue") { pool.waiting == 1 }

    await #expect(throws: PasswordHashingPool.Busy.self) { try await pool.run { "third" } }
    gate.open()
    #expect(try await first.value == "first")
    #expect(try await second.value == "second")
    #expect(pool.waiting == 0)
  }

  @Test func neverMoreHashesAtOnce_thanItsThreads() async throws {
    let pool = PasswordHashingPool(threads: 2, queueLimit: 64)
    let overlap = Overlap()
    let meeting = Meeting()

    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<40 {
        group.addTask {
          _ = try await pool.run {
            overlap.began()
            // The first two wait for each other: both threads are then seen at work at once,
            // however the scheduler orders them. (Left to chance, on a busy machine one
            // low-priority thread once ran all forty before the other woke.)
            meeting.meet()
            // Work that takes a moment, so that hashes would overlap if they could.
            var sum = 0
            for value in 0..<200_000 { sum &+= value }
            overlap.ended()
            return sum
          }
        }
      }
      try await group.waitForAll()
    }

    #expect(overlap.most == 2, "two threads, and forty hashes to keep them both busy")
  }
}

/// How many pieces of work ran at once, at most.
private final class Overlap: Sendable {
  private let counts = Mutex((now: 0, most: 0))

  var most: Int { counts.withLock { $0.most } }

  func began() {
    counts.withLock {
      $0.now += 1
      $0.most = max($0.most, $0.now)
    }
  }

  func ended() { counts.withLock { $0.now -= 1 } }
}

/// The first two callers wait for each other, ten seconds at most; later ones pass. It
/// blocks threads of the pool under test, never one of the cooperative pool.
private final class Meeting: Sendable {
  private let arrived = Mutex(0)
  private let bothHere = DispatchSemaphore(value: 0)

  func meet() {
    let count = arrived.withLock {
      $0 += 1
      return $0
    }
    switch count {
    case 1: _ = bothHere.wait(timeout: .now() + .seconds(10))
    case 2: bothHere.signal()
    default: break
    }
  }
}

/// A gate a pool thread waits at, opened by the test. It blocks a thread of the pool under
/// test, never one of the cooperative pool.
private final class Gate: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  private let waiting = Atomic(false)

  var isWaiting: Bool { waiting.load(ordering: .acquiring) }

  func wait() {
    waiting.store(true, ordering: .releasing)
    semaphore.wait()
  }

  func open() { semaphore.signal() }
}

extension PasswordHashingPoolTests {
  /// Hashes behind the reads yield the cores to every other request when all are busy: their
  /// threads run below the process's own priority. (No lane ahead here: `aheadShare` is 0.)
  @Test func hashesRun_belowTheRequestThreadsPriority() async throws {
    let pool = PasswordHashingPool(threads: 1, queueLimit: 1)
    let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    let hashing = try await pool.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
    #expect(hashing == own + PasswordHashingPool.behindNiceness, "own \(own), hashing \(hashing)")
  }

  /// An operator tells the hashing threads from the rest in `top -H` or `ps -L`.
  @Test func hashesRun_onThreadsNamedForThem() async throws {
    let pool = PasswordHashingPool(threads: 1, queueLimit: 1)
    let name = try await pool.run {
      try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
    }
    #expect(name == "password-hash-0\n")
  }
}

extension PasswordHashingPoolTests {
  /// A sign-in among reads is answered at once: while its budget lasts, a hash runs on the
  /// lane ahead, above the request threads' priority as far as the process may go (root's
  /// `CAP_SYS_NICE`, or systemd's `LimitNICE=`), and never below it.
  @Test func whileItsBudgetLasts_aHashRunsAheadOfTheRequestThreads() async throws {
    let pool = PasswordHashingPool(threads: 1, queueLimit: 1, aheadShare: 0.5)
    let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    let (nice, name) = try await pool.run { (Self.threadNice(), Self.threadName()) }

    let allowed = max(own + PasswordHashingPool.aheadNiceness, PriorityThread.lowestNiceAllowed())
    #expect(nice == min(own, allowed), "own \(own), ahead \(nice)")
    #expect(name == "password-hash-a\n")
  }

  /// A storm of sign-ins spends the budget: the hashes beyond it run behind the reads, so
  /// the reads keep most of the cores.
  @Test func beyondItsBudget_hashesRunBehindTheRequestThreads() async throws {
    // A budget of a millionth of the cores: the first hash spends more than a year earns.
    let pool = PasswordHashingPool(threads: 1, queueLimit: 4, aheadShare: 1e-9)
    let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)

    // Work measurable on the thread's CPU clock, however fine or coarse it is.
    let first = try await pool.run { (Self.threadName(), (0..<2_000_000).reduce(0, &+)) }
    let second = try await pool.run { (Self.threadNice(), Self.threadName()) }

    #expect(first.0 == "password-hash-a\n")
    #expect(second.1 == "password-hash-0\n")
    #expect(second.0 == own + PasswordHashingPool.behindNiceness)
  }

  private static func threadNice() -> Int32 {
    getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
  }

  private static func threadName() -> String? {
    try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
  }
}
