import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Where password hashes are computed: threads of their own, and a bounded queue.
///
/// A hash is 600,000 rounds of PBKDF2, a long time for one core. On the request threads,
/// eight sign-ins at once took every core of a 2-core machine, and likes pages slowed to a
/// crawl (docs/decisions/ has the figures). Here a hash runs on one of two kinds of lane:
/// - the lane ahead, one thread above the request threads' priority, while its
///   `HashingBudget` lasts (`aheadShare` of the machine's cores): a sign-in among reads is
///   answered at once;
/// - the lanes behind, `threads` threads below the request threads' priority, for the rest:
///   in a storm of sign-ins the reads keep the cores, and a caller beyond `queueLimit`
///   waiting ones is refused at once (`Busy`), to be answered `503` with `Retry-After`.
final class PasswordHashingPool: Sendable {
  struct Busy: Error {}

  /// How much nicer than the process the lanes behind run: 10, about a tenth of a request
  /// thread's share of a busy core.
  static let behindNiceness: Int32 = 10
  /// How far ahead the lane ahead asks to run, as far as the process may (`PriorityThread`):
  /// 10, about ten times a request thread's share.
  static let aheadNiceness: Int32 = -10

  let threads: Int
  let queueLimit: Int
  private let behind: [PriorityThread]
  private let ahead: PriorityThread?
  private let state: Mutex<State>
  /// Told the number of waiting hashes each time it changes (a metric).
  private let waitingChanged: @Sendable (Int) -> Void

  private struct State {
    /// Admitted hashes per lane behind, running or waiting.
    var behind: [Int]
    /// Admitted hashes on the lane ahead, running or waiting.
    var ahead = 0
    var budget: HashingBudget?

    var waiting: Int {
      behind.reduce(max(0, ahead - 1)) { $0 + max(0, $1 - 1) }
    }
  }

  private enum Lane {
    case ahead(charged: Double)
    case behind(Int)
  }

  /// `aheadShare` is the part of the machine's cores the lane ahead may take on average
  /// (0.25 of 2 cores: half a core); 0 runs every hash behind.
  init(
    threads: Int, queueLimit: Int, aheadShare: Double = 0,
    waitingChanged: @escaping @Sendable (Int) -> Void = { _ in }
  ) {
    precondition(threads > 0 && queueLimit >= 0 && aheadShare >= 0)
    self.threads = threads
    self.queueLimit = queueLimit
    self.waitingChanged = waitingChanged
    behind = (0..<threads).map {
      PriorityThread(name: "password-hash-\($0)", niceness: Self.behindNiceness)
    }
    let rate = aheadShare * Double(ProcessInfo.processInfo.activeProcessorCount)
    ahead = rate > 0 ? PriorityThread(name: "password-hash-a", niceness: Self.aheadNiceness) : nil
    state = Mutex(
      State(
        behind: [Int](repeating: 0, count: threads),
        budget: rate > 0 ? HashingBudget(rate: rate, now: Self.now()) : nil))
  }

  /// Hashes waiting for a thread now.
  var waiting: Int {
    state.withLock { $0.waiting }
  }

  /// Runs `work` on one of the pool's threads and returns its result; throws `Busy` at once
  /// when `queueLimit` hashes already wait behind. The work is not cancelled with the
  /// caller: a hash, once started, is short, and the caller's continuation is resumed
  /// exactly once.
  func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    guard let lane = admit() else { throw Busy() }
    return try await withCheckedThrowingContinuation { continuation in
      switch lane {
      case .ahead(let charged):
        // The budget exists only with the lane ahead (`init`), so a hash is never admitted
        // ahead without it: a continuation left waiting would hang a sign-in for ever.
        guard let ahead else { preconditionFailure("admitted ahead, with no lane ahead") }
        ahead.async {
          let start = Self.threadCPUSeconds()
          let result = Result { try work() }
          let cost = Self.threadCPUSeconds() - start
          self.finished(result, continuation) { state in
            state.ahead -= 1
            state.budget?.spent(cost, charged: charged)
          }
        }
      case .behind(let index):
        behind[index].async {
          let result = Result { try work() }
          self.finished(result, continuation) { $0.behind[index] -= 1 }
        }
      }
    }
  }

  private func finished<T: Sendable>(
    _ result: Result<T, any Error>, _ continuation: CheckedContinuation<T, any Error>,
    release: (inout State) -> Void
  ) {
    let waiting = state.withLock { state in
      release(&state)
      return state.waiting
    }
    waitingChanged(waiting)
    continuation.resume(with: result)
  }

  private func admit() -> Lane? {
    let now = Self.now()
    let admitted: (lane: Lane, waiting: Int)? = state.withLock { state in
      if let charged = state.budget?.admit(now: now) {
        state.ahead += 1
        return (.ahead(charged: charged), state.waiting)
      }
      let lane = state.behind.indices.min { state.behind[$0] < state.behind[$1] } ?? 0
      guard state.behind[lane] == 0 || state.waiting < queueLimit else { return nil }
      state.behind[lane] += 1
      return (.behind(lane), state.waiting)
    }
    if let admitted { waitingChanged(admitted.waiting) }
    return admitted?.lane
  }

  private static func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
  }

  /// The CPU time the calling thread has used, in seconds: what a hash costs, whatever else
  /// ran on the machine meanwhile.
  private static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
