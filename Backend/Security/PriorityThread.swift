import Dispatch
import Foundation
import Synchronization
import SystemSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of its own that runs its jobs in order, at a scheduling priority of its own: the
/// password hashes'. Below the request threads (a positive `niceness`), the kernel gives the
/// reads most of a busy machine while sign-ins queue; above them (a negative one, as far as
/// the process may go), a sign-in finds a core at once. With cores to spare, a hash runs as
/// fast at any priority.
///
/// A dispatch queue cannot be used: its thread is shared with other work later, and a thread
/// whose priority was lowered cannot raise it again without privileges.
final class PriorityThread: Sendable {
  private final class Jobs: Sendable {
    let pending = Mutex<[@Sendable () -> Void]>([])
    /// Signalled once per job, and once more when the thread is to end.
    let signal = DispatchSemaphore(value: 0)
  }

  private let jobs = Jobs()

  /// Starts the thread `niceness` away from its creator's nice value: positive is nicer
  /// (behind), negative is ahead, as far as `lowestNiceAllowed()` lets it.
  init(name: String, niceness: Int32) {
    let jobs = jobs
    NamedThread.start(name) {
      // On Linux the nice value belongs to the thread, and 0 names the calling one; it
      // starts at its creator's.
      let own = getpriority(Self.thisThread, 0)
      let target =
        niceness < 0
        ? max(own + niceness, min(own, Self.lowestNiceAllowed())) : min(19, own + niceness)
      _ = setpriority(Self.thisThread, 0, target)
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

  private static let thisThread = __priority_which_t(PRIO_PROCESS.rawValue)

  /// The lowest nice value (the highest priority) this process may give a thread: -20 with
  /// `CAP_SYS_NICE` (root's), else what `RLIMIT_NICE` grants (systemd's `LimitNICE=`), which
  /// by default is nothing below the thread's own.
  static func lowestNiceAllowed() -> Int32 {
    if hasCapability(sysNiceBit) { return -20 }
    var limit = rlimit()
    // RLIMIT_NICE is a macro Swift does not import; it names glibc's __RLIMIT_NICE.
    guard getrlimit(Int32(__RLIMIT_NICE.rawValue), &limit) == 0 else { return 20 }
    // The limit is stored as 20 - nice (so that it is never negative): 30 allows -10.
    return Int32(20 - Int64(min(limit.rlim_cur, 40)))
  }

  /// `CAP_SYS_NICE`'s bit in the effective set `/proc/self/status` shows.
  private static let sysNiceBit = 23

  private static func hasCapability(_ bit: Int) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
      let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(bit)) != 0
  }
}
