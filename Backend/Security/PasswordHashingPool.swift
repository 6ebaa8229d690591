import Dispatch
import Foundation
import Synchronization

/// Where password hashes are computed: a few threads of their own, and a bounded queue.
///
/// A hash is 600,000 rounds of PBKDF2, a long time for one core. On the request threads,
/// eight sign-ins at once took every core of a 2-core machine, and likes pages slowed to a
/// crawl (docs/decisions.md has the figures). Here at most `threads` hashes run at once, whatever
/// arrives, so the other requests keep the remaining cores; a caller beyond `queueLimit`
/// waiting ones is refused at once (`Busy`), to be answered `503` with `Retry-After`.
final class PasswordHashingPool: Sendable {
  struct Busy: Error {}

  let threads: Int
  let queueLimit: Int
  /// Threads of their own, below the request threads' priority (`LowPriorityThread`).
  private let lanes: [LowPriorityThread]
  /// Admitted hashes per lane, running or waiting.
  private let admitted: Mutex<[Int]>
  /// Told the number of waiting hashes each time it changes (a metric).
  private let waitingChanged: @Sendable (Int) -> Void

  init(
    threads: Int, queueLimit: Int, waitingChanged: @escaping @Sendable (Int) -> Void = { _ in }
  ) {
    precondition(threads > 0 && queueLimit >= 0)
    self.threads = threads
    self.queueLimit = queueLimit
    self.waitingChanged = waitingChanged
    lanes = (0..<threads).map { LowPriorityThread(name: "password-hash-\($0)") }
    admitted = Mutex([Int](repeating: 0, count: threads))
  }

  /// Hashes waiting for a thread now.
  var waiting: Int {
    admitted.withLock { Self.waiting($0) }
  }

  private static func waiting(_ lanes: [Int]) -> Int {
    lanes.reduce(0) { $0 + max(0, $1 - 1) }
  }

  /// Runs `work` on one of the pool's threads and returns its result; throws `Busy` at once
  /// when `queueLimit` hashes already wait. The work is not cancelled with the caller: a
  /// hash, once started, is short, and the caller's continuation is resumed exactly once.
  func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    guard let lane = admit() else { throw Busy() }
    return try await withCheckedThrowingContinuation { continuation in
      lanes[lane].async {
        let result = Result { try work() }
        let waiting = self.admitted.withLock { lanes in
          lanes[lane] -= 1
          return Self.waiting(lanes)
        }
        self.waitingChanged(waiting)
        continuation.resume(with: result)
      }
    }
  }

  private func admit() -> Int? {
    let admitted: (lane: Int, waiting: Int)? = admitted.withLock { lanes in
      let lane = lanes.indices.min { lanes[$0] < lanes[$1] } ?? 0
      guard lanes[lane] == 0 || Self.waiting(lanes) < queueLimit else { return nil }
      lanes[lane] += 1
      return (lane, Self.waiting(lanes))
    }
    if let admitted { waitingChanged(admitted.waiting) }
    return admitted?.lane
  }
}
