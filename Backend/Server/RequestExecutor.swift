import Dispatch

/// A task executor on a concurrent dispatch queue of its own, outside Swift's cooperative
/// pool: where the server's task and every request it handles run.
///
/// Why: the backend's work blocks its thread (GRDB's synchronous reads and writes, 600,000
/// rounds of PBKDF2 at each sign-in). On the cooperative pool, with one thread per core,
/// two sign-ins would stop every other request of the process, and in the test process every
/// other test as well. Dispatch gives a queue that blocks more threads, so requests keep
/// being answered side by side. A single task's jobs never run at once, so a concurrent
/// queue is a sound task executor.
public final class RequestExecutor: TaskExecutor, @unchecked Sendable {
  // Immutable after init; DispatchQueue is thread-safe.
  private let queue: DispatchQueue

  public init(label: String) {
    queue = DispatchQueue(label: label, attributes: .concurrent)
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
