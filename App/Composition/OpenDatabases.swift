import Data
import Synchronization

/// The databases a command opened, for `AppMain.run(_:io:)` to close when the command ends:
/// the app's own, and the embedded backend's. A command run in a process that goes on (a
/// test's) must leave nothing behind: a connection released after the command returned
/// (GRDB releases one on its own queue a moment after the last use; the backend's event
/// watcher holds its pool for a second after the last poll) closed then, and SQLite deleted
/// the `-wal` and `-shm` files under whoever looked at the data folder next. The binary
/// does not track them: it ends its process (`_exit`) as soon as the command returns.
final class OpenDatabases: Sendable {
  private let closes = Mutex<[@Sendable () async -> Void]>([])

  /// `database` is closed with the others when the command ends.
  func track(_ database: AppDatabase) {
    track { await database.close() }
  }

  /// `close` runs with the others when the command ends.
  func track(closing close: @escaping @Sendable () async -> Void) {
    closes.withLock { $0.append(close) }
  }

  /// Closes every database tracked so far, one after the other.
  func closeAll() async {
    let tracked = closes.withLock { closes in
      defer { closes = [] }
      return closes
    }
    for close in tracked { await close() }
  }
}
