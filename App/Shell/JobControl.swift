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

  /// Whether a job-control shell could continue this process after a stop: its parent is in
  /// the same session and another process group (a shell that made it a job), and SIGTSTP
  /// is not ignored. Otherwise the system would drop the stop, or nobody could say `fg`.
  static var canSuspend: Bool {
    let parent = getppid()
    guard getsid(parent) == getsid(0), getpgid(parent) != getpgrp() else { return false }
    var current = sigaction()
    guard sigaction(SIGTSTP, nil, &current) == 0 else { return false }
    return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
      != unsafeBitCast(SIG_IGN, to: Int.self)
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
