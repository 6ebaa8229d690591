import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One run of a program, timed from spawn to exit, with its own peak memory.
public struct MeasuredRun {
  public let seconds: Double
  /// The child's `ru_maxrss` from `wait4`. Linux carries the spawning process's resident
  /// size at exec into it, so this benchmark keeps itself small (tens of MiB) while it
  /// spawns: the figure is the child's own to within that.
  public let peakMiB: Double
  public let status: Int32

  public init(seconds: Double, peakMiB: Double, status: Int32) {
    self.seconds = seconds
    self.peakMiB = peakMiB
    self.status = status
  }
}

/// Runs `arguments` with stdin, stdout and stderr on files, and waits for it.
public func measure(
  _ arguments: [String], stdin: String = "/dev/null", stdout: String, stderr: String
) -> MeasuredRun {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  let argv = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var pid = pid_t()
  let start = DispatchTime.now().uptimeNanoseconds
  let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
  precondition(
    spawned == 0, "could not start \(arguments[0]): \(String(cString: strerror(spawned)))")
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  return MeasuredRun(seconds: seconds, peakMiB: Double(usage.ru_maxrss) / 1024, status: exitCode)
}

/// A file's text, or "" (for error messages about a run).
public func fileContents(_ path: String) -> String {
  (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
