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
public final class RequestExecutor: TaskExecutor, Sendable {
  /// Threads each executor has: more than the blocking calls a request makes at once.
  public static let defaultLaneCount = 16

  /// A serial queue and the jobs given to it that have not finished. The counts are atomics,
  /// not one lock over all of them: every job passes here twice, and a contended lock (a
  /// priority-inheriting futex on Linux) cost the server more than a request's own work.
  private final class Lane: Sendable {
    let queue: DispatchQueue
    let pending = Atomic<Int>(0)

    init(label: String) {
      queue = DispatchQueue(label: label)
    }
  }

  private let lanes: [Lane]

  public init(label: String, lanes count: Int = defaultLaneCount) {
    lanes = (0..<count).map { Lane(label: "\(label).\($0)") }
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // The least busy lane as read a moment ago: two jobs may pick the same one, which only
    // costs the second a short wait.
    let lane = lanes.min {
      $0.pending.load(ordering: .relaxed) < $1.pending.load(ordering: .relaxed)
    }!
    lane.pending.add(1, ordering: .relaxed)
    lane.queue.async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      lane.pending.subtract(1, ordering: .relaxed)
    }
  }
}
