import Synchronization

/// Values kept until the process exits, so that they are never torn down.
///
/// A command that is the whole process (not one of the shell's, not one a test runs in
/// process) ends by exiting. Freeing a large answer object by object just before (a 79 MB
/// messages envelope is a million and a half strings) would take time to give back memory
/// nobody will use; compilers skip freeing at exit for the same reason. Closing the likes
/// database would checkpoint its WAL at every command; opening empties a long one instead
/// (`AppDatabase.longWALBytes`).
enum ProcessLifetime {
  private static let kept = Mutex<[any Sendable]>([])

  static func keepUntilExit(_ value: any Sendable, io: AppIO) {
    guard io.handlesSignals, !io.isLongLived else { return }
    kept.withLock { $0.append(value) }
  }
}
