import Dispatch

/// A task executor with a thread of its own (a serial dispatch queue, which always gets a
/// thread when it has work), outside Swift's cooperative pool.
///
/// Why the test servers need one: the suite runs hundreds of tests in parallel on a pool of
/// one thread per core. On a 2-core machine two CPU-bound tests (a fuzz test, a password
/// hash) hold the whole pool, and a server whose request handling also waits for the pool
/// answers late: the app under test reports "did not answer within 15 s" for a server that
/// is merely queued. A server that runs on its own thread answers as fast as the machine
/// allows, whatever the other tests do.
public final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
  // Immutable after init; DispatchQueue is thread-safe.
  private let queue: DispatchQueue

  public init(label: String) {
    queue = DispatchQueue(label: label)
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
