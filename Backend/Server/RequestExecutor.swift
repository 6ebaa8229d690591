import Dispatch
import Synchronization

/// A task executor with threads of its own, outside Swift's cooperative pool: where the
/// backend's work and every request the server handles run.
///
/// Why: the backend's work blocks its thread (GRDB's synchronous reads and writes, 600,000
/// rounds of PBKDF2 at each sign-in). On the cooperative pool, with one thread per core,
/// two sign-ins would stop every other request of the process, and in the test process every
/// other test as well.
///
/// The threads are serial dispatch queues ("lanes"), because a serial queue always gets a
/// thread when it has work. A concurrent queue does not: its jobs share dispatch's default
/// pool, one thread per core, so two blocked jobs anywhere in the process stopped every
/// request. Each job goes to the least busy lane, so a blocked lane holds up nothing else.
/// A single task's jobs never run at once, so spreading them over lanes is sound.
public final class RequestExecutor: TaskExecutor, @unchecked Sendable {
  // Immutable after init; DispatchQueue is thread-safe and `pending` is behind a lock.
  private let lanes: [DispatchQueue]
  private let pending: Mutex<[Int]>

  public init(label: String, lanes count: Int = 16) {
    lanes = (0..<count).map { DispatchQueue(label: "\(label).\($0)") }
    pending = Mutex([Int](repeating: 0, count: count))
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let lane = pending.withLock { pending in
      let lane = pending.indices.min { pending[$0] < pending[$1] } ?? 0
      pending[lane] += 1
      return lane
    }
    lanes[lane].async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      self.pending.withLock { $0[lane] -= 1 }
    }
  }
}
