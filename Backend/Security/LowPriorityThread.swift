import Dispatch
import Foundation
import Synchronization
import SystemSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of its own that runs its jobs in order, at a lower scheduling priority than the
/// rest of the process: the password hashes'. On a machine whose cores are all busy, the
/// kernel then gives the request threads most of the time, so reads keep their speed while
/// sign-ins queue; with cores to spare, a hash runs as fast as at any priority.
///
/// A dispatch queue cannot be used: its thread is shared with other work later, and a thread
/// whose priority was lowered cannot raise it again without privileges.
final class LowPriorityThread: Sendable {
  /// How much nicer than its creator the thread is: 10, about a tenth of a request thread's
  /// share of a busy core.
  static let niceness: Int32 = 10

  private final class Jobs: Sendable {
    let pending = Mutex<[@Sendable () -> Void]>([])
    /// Signalled once per job, and once more when the thread is to end.
    let signal = DispatchSemaphore(value: 0)
  }

  private let jobs = Jobs()

  init(name: String) {
    let jobs = jobs
    NamedThread.start(name) {
      // On Linux the nice value belongs to the thread, and 0 names the calling one; it
      // starts at its creator's, which this lowers further.
      let which = __priority_which_t(PRIO_PROCESS.rawValue)
      _ = setpriority(which, 0, getpriority(which, 0) + Self.niceness)
      while true {
        jobs.signal.wait()
        let job = jobs.pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let job else { return }
        job()
      }
    }
  }

  func async(_ job: @escaping @Sendable () -> Void) {
    jobs.pending.withLock { $0.append(job) }
    jobs.signal.signal()
  }

  /// Ends the thread. Every job given holds its owner, so none is left to run by now.
  deinit {
    jobs.signal.signal()
  }
}
