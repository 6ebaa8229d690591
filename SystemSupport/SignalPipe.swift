import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A signal answered on a thread of its own: the process's handler for it writes one byte
/// to a pipe, and the signal's thread reads the pipe and runs the code that watches it. What
/// `app` uses for Ctrl-C (SIGINT), the shell's resizes (SIGWINCH) and `app-server`'s stop
/// (SIGTERM).
///
/// Not a dispatch signal source: on Linux libdispatch reads a signal from a signalfd on its
/// manager thread, while the main thread, parked by an async main with no signal blocked,
/// may take the signal first; libdispatch's handler then sends it on to one thread, and in
/// about 1 of 400 Ctrl-Cs at a prompt on a busy machine it never came out of the signalfd
/// (docs/decisions/). A handler of our own runs on whichever thread the kernel picks, and
/// only makes async-signal-safe calls: one `write` to a write end that never blocks (a full
/// pipe already holds signals not yet answered).
public final class SignalPipe: Sendable {
  /// The signals one process may watch: 1 to 64 on Linux.
  private static let signalLimit = 65

  /// Each signal's pipe write end, -1 for a signal without a pipe, read by the handler.
  /// Allocated once; an entry is set before the handler is first installed and never changed
  /// afterwards, so the handler reads it without a lock.
  nonisolated(unsafe) private static let writeEnds: UnsafeMutablePointer<Int32> = {
    let table = UnsafeMutablePointer<Int32>.allocate(capacity: signalLimit)
    table.initialize(repeating: -1, count: signalLimit)
    return table
  }()

  private struct Watched {
    /// The signal's disposition before it was first watched, restored when no one watches.
    var previous = sigaction()
    var watchers: [(id: Int, respond: @Sendable () -> Void)] = []
  }

  private struct Registry {
    var signals: [Int32: Watched] = [:]
    var nextID = 0
  }

  private static let registry = Mutex(Registry())

  private let signal: Int32
  private let id: Int

  private init(signal: Int32, id: Int) {
    self.signal = signal
    self.id = id
  }

  /// From now on, until `cancel()`, each `signal` the process receives runs `respond` on the
  /// signal's thread (one thread per signal, so the responses to one signal never overlap).
  /// Several watchers of one signal all run, oldest first. Nil when the signal is out of
  /// range or the process has no file descriptor left for the pipe: the signal then keeps
  /// its disposition.
  @discardableResult
  public static func watch(
    _ signal: Int32, _ respond: @escaping @Sendable () -> Void
  ) -> SignalPipe? {
    guard signal > 0, signal < signalLimit else { return nil }
    return registry.withLock { registry -> SignalPipe? in
      if registry.signals[signal] == nil {
        guard writeEnds[Int(signal)] >= 0 || openPipe(for: signal) else { return nil }
        registry.signals[signal] = Watched(previous: installHandler(for: signal))
      }
      registry.nextID += 1
      registry.signals[signal]?.watchers.append((registry.nextID, respond))
      return SignalPipe(signal: signal, id: registry.nextID)
    }
  }

  /// `respond` runs no more. The last watcher of a signal gives it back its disposition from
  /// before it was watched; its pipe and thread stay, for the next watcher.
  public func cancel() {
    Self.registry.withLock { registry in
      guard var watched = registry.signals[signal] else { return }
      watched.watchers.removeAll { $0.id == id }
      if watched.watchers.isEmpty {
        var previous = watched.previous
        sigaction(signal, &previous, nil)
        registry.signals[signal] = nil
      } else {
        registry.signals[signal] = watched
      }
    }
  }

  /// Makes the signal's pipe and starts the thread that reads it. False when the process has
  /// no descriptor left.
  private static func openPipe(for signal: Int32) -> Bool {
    var ends: [Int32] = [-1, -1]
    // A process spawned between the two calls would only hold the pipe open, harmlessly.
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    writeEnds[Int(signal)] = ends[1]
    let readEnd = ends[0]
    NamedThread.start("signal-\(signal)") {
      while waitForSignal(readEnd) {
        let watchers = registry.withLock { $0.signals[signal]?.watchers ?? [] }
        for watcher in watchers { watcher.respond() }
      }
    }
    return true
  }

  /// Installs the handler that writes to the signal's pipe; returns the disposition it
  /// replaced.
  private static func installHandler(for signal: Int32) -> sigaction {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      let saved = errno
      let writeEnd = SignalPipe.writeEnds[Int(signal)]
      if writeEnd >= 0 {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
      }
      errno = saved
    }
    sigemptyset(&action.sa_mask)
    // Whatever the interrupted thread was doing goes on: a read of the terminal, a wait.
    action.sa_flags = SA_RESTART
    var previous = sigaction()
    sigaction(signal, &action, &previous)
    return previous
  }

  /// Blocks until the signal comes; false if the pipe is gone.
  private static func waitForSignal(_ readEnd: Int32) -> Bool {
    var byte: UInt8 = 0
    while true {
      let count = read(readEnd, &byte, 1)
      if count == 1 { return true }
      if count < 0 && errno == EINTR { continue }
      return false
    }
  }
}
