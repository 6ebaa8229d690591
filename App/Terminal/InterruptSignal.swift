import Foundation
import Presentation
import Synchronization

/// The process's one SIGINT handler, installed by `AppMain` before any command runs. By
/// default Ctrl-C ends the command as an interrupted one: "Interrupted." on stderr, under
/// `--json` an `interrupted` error document on stdout, exit 130, never a death by signal.
/// A command with work that must be finished or undone first (`InterruptHandler`) takes
/// Ctrl-C over while that work runs, and the shell takes it over for its whole session
/// (the line being typed is dropped, the command running is cancelled). Responders stack:
/// the newest is asked first, and one that declines passes Ctrl-C to the one below.
package final class InterruptSignal: Sendable {
  package static let shared = InterruptSignal()

  /// The error an interrupted command reports.
  static let error = UserFacingError(code: "interrupted", message: "Interrupted (Ctrl-C).")

  private struct State {
    var installed = false
    /// Each answers true when it took the interruption over; the last is asked first.
    var responders: [(id: Int, respond: @Sendable () -> Bool)] = []
    var nextID = 0
  }
  private let state = Mutex(State())

  private init() {}

  /// Starts handling Ctrl-C for the process, reporting to `io`'s streams.
  ///
  /// The signal handler only writes a byte to a pipe, and a thread of its own reads it and
  /// answers (the command's own thread may be blocked reading a line). Not a dispatch
  /// signal source: on Linux libdispatch reads SIGINT from a signalfd on its manager thread,
  /// while the main thread, parked by the async main with no signal blocked, may take the
  /// signal first; its handler then sends it on to one thread, and in about 1 of 400
  /// Ctrl-Cs at a prompt on a busy machine it never came out of the signalfd: the command
  /// went on waiting for its answer, "^C" on the screen. A handler of our own runs on
  /// whichever thread the kernel picks.
  func install(io: AppIO, json: Bool) {
    state.withLock { state in
      guard !state.installed else { return }
      guard let readEnd = InterruptPipe.open() else { return }
      Thread { [self] in
        while InterruptPipe.waitForSignal(readEnd) { interrupted(io: io, json: json) }
      }.start()
      InterruptPipe.handleSIGINT()
      state.installed = true
    }
  }

  /// Ctrl-C that reached the shell's line editor as a key, at a question a command asked:
  /// the command is interrupted as a SIGINT would, before the editor hands back its answer,
  /// so that the command sees the interruption before it goes on.
  func deliver() {
    interrupted(io: .standard, json: false)
  }

  private func interrupted(io: AppIO, json: Bool) {
    let responders = state.withLock { $0.responders }
    for responder in responders.reversed() where responder.respond() { return }
    // A new line first: Ctrl-C may come in the middle of a prompt or a spinner.
    io.writeError("\n")
    Console(json: json, io: io).report(Self.error)
    exit(ExitCodes.interrupted.rawValue)
  }

  /// Until `removeResponder` with the number returned, Ctrl-C asks `responder` first.
  package func addResponder(_ responder: @escaping @Sendable () -> Bool) -> Int {
    state.withLock { state in
      state.nextID += 1
      state.responders.append((state.nextID, responder))
      return state.nextID
    }
  }

  func removeResponder(_ id: Int) {
    state.withLock { $0.responders.removeAll { $0.id == id } }
  }
}

/// The self-pipe between the SIGINT handler and the thread that answers Ctrl-C. The
/// handler may only make async-signal-safe calls: one `write` of one byte, to a write end
/// that never blocks (a full pipe already holds an unanswered Ctrl-C).
private enum InterruptPipe {
  /// The pipe's write end, set before the handler is installed and never changed.
  nonisolated(unsafe) static var writeEnd: Int32 = -1

  /// Makes the pipe; returns its read end, or nil when the process has no descriptor left
  /// (Ctrl-C then keeps its default: the process ends by the signal).
  static func open() -> Int32? {
    var ends: [Int32] = [-1, -1]
    // A process spawned between the two calls would only hold the pipe open, harmlessly.
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    writeEnd = ends[1]
    return ends[0]
  }

  static func handleSIGINT() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      let saved = errno
      var byte: UInt8 = 1
      _ = write(InterruptPipe.writeEnd, &byte, 1)
      errno = saved
    }
    sigemptyset(&action.sa_mask)
    // Whatever the interrupted thread was doing goes on: a read of the terminal, a wait.
    action.sa_flags = SA_RESTART
    sigaction(SIGINT, &action, nil)
  }

  /// Blocks until Ctrl-C; false if the pipe is gone.
  static func waitForSignal(_ readEnd: Int32) -> Bool {
    var byte: UInt8 = 0
    while true {
      let count = read(readEnd, &byte, 1)
      if count == 1 { return true }
      if count < 0 && errno == EINTR { continue }
      return false
    }
  }
}
