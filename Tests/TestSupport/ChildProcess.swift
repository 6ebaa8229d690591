import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Starts a program with its standard streams on files and waits for it to exit.
///
/// Foundation's `Process` learns that a child ended through a socket the child inherits; a
/// daemon the child starts (a keyring, a D-Bus bus) inherits it too, and the child then
/// never seems to end. `posix_spawn` plus `waitpid` has no such link.
public enum ChildProcess {
  public struct Files: Sendable {
    public let stdin: URL
    public let stdout: URL
    public let stderr: URL

    public init(stdin: URL, stdout: URL, stderr: URL) {
      self.stdin = stdin
      self.stdout = stdout
      self.stderr = stderr
    }
  }

  /// How a child ended: `status` is the exit status, or 128 + the signal as a shell reports
  /// it; `signal` tells a death by signal from a process that chose to exit 130.
  public struct Termination: Sendable {
    public let status: Int32
    public let signal: Int32?
  }

  /// Starts the child with its streams on `files`; `newSession` makes it a session leader,
  /// so that a terminal among its files becomes its controlling terminal. `listening`, a
  /// socket that is not descriptor 3, becomes the child's descriptor 3 (socket activation's
  /// first, `LISTEN_FDS`).
  public static func spawn(
    _ executable: URL, _ arguments: [String], environment: [String: String], files: Files,
    newSession: Bool = false, listening: Int32? = nil
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, files.stdin.path, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, files.stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(
      &actions, 2, files.stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // Nothing else of the test process goes to the child. SwiftNIO's listening sockets are
    // not close-on-exec: a child that inherited a test server's socket kept it listening
    // after the server stopped, so "server down" became "no answer within 15 s".
    if let listening {
      precondition(listening != 3, "the listening socket must not already be descriptor 3")
      posix_spawn_file_actions_adddup2(&actions, listening, 3)
    }
    closeInheritedDescriptors(&actions, from: listening == nil ? 3 : 4)

    // A child inherits the spawning thread's signal mask, and the test runner's threads
    // block most signals: without this, the child (and the daemons it starts) would ignore
    // SIGTERM, and `dbus-run-session` could not stop its bus.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    // POSIX_SPAWN_SETSID (glibc 2.26+), a macro Swift's Glibc module does not import.
    let sessionFlag: Int32 = newSession ? 0x80 : 0
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | sessionFlag))

    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw SpawnError(
        description: "posix_spawn \(executable.path): \(String(cString: strerror(spawned)))")
    }
    return pid
  }

  /// Runs the child to its end. Gives up after `limit` seconds with SIGKILL; `killWhen`,
  /// checked every 20 ms, sends `killSignal` (or what `killSignalNow` says then) as soon as
  /// it returns true.
  public static func run(
    _ executable: URL, _ arguments: [String], environment: [String: String], files: Files,
    limit: TimeInterval = 60, killWhen: (@Sendable () -> Bool)? = nil,
    killSignal: Int32 = SIGKILL, killSignalNow: (@Sendable () -> Int32)? = nil
  ) async throws -> Termination {
    let pid = try spawn(executable, arguments, environment: environment, files: files)
    let child = pid
    let killer = DispatchWorkItem { kill(child, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: killer)
    defer { killer.cancel() }
    let watcher = killWhen.map { condition in
      let timer = DispatchSource.makeTimerSource(queue: .global())
      timer.schedule(deadline: .now(), repeating: .milliseconds(20))
      timer.setEventHandler {
        if condition() {
          kill(child, killSignalNow?() ?? killSignal)
          timer.cancel()
        }
      }
      timer.resume()
      return timer
    }
    defer { watcher?.cancel() }
    return await waitForExit(child)
  }

  /// Waits for `pid` to end.
  public static func waitForExit(_ pid: pid_t) async -> Termination {
    return await withCheckedContinuation { continuation in
      // A thread of its own: waitpid blocks, and the cooperative pool must stay free for
      // the loopback servers that answer the child.
      Thread { continuation.resume(returning: blockingWaitForExit(pid)) }.start()
    }
  }

  /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at run time because
  /// Swift's Glibc module does not declare it.
  private static func closeInheritedDescriptors(
    _ actions: inout posix_spawn_file_actions_t, from lowest: Int32
  ) {
    typealias AddCloseFrom =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard
      let symbol = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { preconditionFailure("glibc without posix_spawn_file_actions_addclosefrom_np") }
    let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
    precondition(addCloseFrom(&actions, lowest) == 0, "addclosefrom failed")
  }

  public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
  }

  /// Waits for `pid` to end, blocking the calling thread: for a thread of its own only.
  public static func blockingWaitForExit(_ pid: pid_t) -> Termination {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0
      ? Termination(status: (status >> 8) & 0xff, signal: nil)
      : Termination(status: 128 + signal, signal: signal)
  }
}
