import Foundation

/// Ctrl-Z for a program that reads its own keys: the line editor's mode delivers Ctrl-Z as a
/// key, not as the terminal's SIGTSTP, so the editor stops the job itself and must know
/// when it goes on.
///
/// A stop sent to the process is taken by whichever thread the system picks, a moment
/// later: the editor's thread would run on and draw before it. So the editor's thread waits
/// for SIGCONT, which a handler turns into a byte on a pipe (all a handler may safely do).
enum JobControl {
  /// The pipe SIGCONT's handler writes to. Set once, before the handler is installed.
  nonisolated(unsafe) private static var continued: (read: Int32, write: Int32) = (-1, -1)

  private static let installed: Bool = {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return false }
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    continued = (ends[0], ends[1])
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      var byte: UInt8 = 1
      _ = write(JobControl.continued.write, &byte, 1)
    }
    action.sa_flags = SA_RESTART
    return sigaction(SIGCONT, &action, nil) == 0
  }()

  /// Whether a job-control shell could continue this process after a stop: the process
  /// group is not orphaned (POSIX: some member's parent is in another group of the same
  /// session: the shell that made it a job, perhaps above a wrapper such as
  /// `dbus-run-session`), and SIGTSTP is not ignored. Otherwise the system drops the stop,
  /// and nobody could say `fg`.
  static var canSuspend: Bool {
    var current = sigaction()
    guard sigaction(SIGTSTP, nil, &current) == 0,
      unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
        != unsafeBitCast(SIG_IGN, to: Int.self)
    else { return false }
    let group = getpgrp()
    let session = getsid(0)
    let all = processes()
    let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return all.contains { member in
      guard member.group == group, let parent = byID[member.parent] else { return false }
      return parent.group != group && parent.session == session
    }
  }

  private struct Process {
    let id: pid_t
    let parent: pid_t
    let group: pid_t
    let session: pid_t
  }

  /// Every process's ids, from /proc/PID/stat: "pid (comm) state ppid pgrp session …", the
  /// command name in parentheses and possibly holding any character, so read after the
  /// last ")".
  private static func processes() -> [Process] {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return ids.compactMap { name -> Process? in
      guard let id = pid_t(name),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 3, let parent = pid_t(fields[1]), let group = pid_t(fields[2]),
        let session = pid_t(fields[3])
      else { return nil }
      return Process(id: id, parent: parent, group: group, session: session)
    }
  }

  /// Stops the whole job, as the terminal's Ctrl-Z does, and returns once it is continued
  /// (`fg`, `bg`). Blocks the calling thread meanwhile: the editor's, never the pool.
  static func stopUntilContinued() {
    guard installed else { return }
    var drained = [UInt8](repeating: 0, count: 64)
    while read(continued.read, &drained, drained.count) > 0 {}
    kill(0, SIGTSTP)
    var waiting = pollfd(fd: continued.read, events: Int16(POLLIN), revents: 0)
    while poll(&waiting, 1, -1) < 0 && errno == EINTR {}
    while read(continued.read, &drained, drained.count) > 0 {}
  }
}
