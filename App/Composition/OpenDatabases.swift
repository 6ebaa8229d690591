import Data
import Synchronization

/// The app databases a command opened, for `AppMain.run(_:io:)` to close when the command
/// ends. A command run in a process that goes on (a test's) must leave nothing behind:
/// GRDB releases a connection on its own queue a moment after the last use, so without an
/// explicit close, SQLite would delete the `-wal` and `-shm` files after the command
/// returned, under whoever looks at the data folder next. The binary does not track them:
/// it ends its process (`_exit`) as soon as the command returns.
final class OpenDatabases: Sendable {
  private let databases = Mutex<[AppDatabase]>([])

  /// `database` is closed with the others when the command ends.
  func track(_ database: AppDatabase) {
    databases.withLock { $0.append(database) }
  }

  /// Closes every database tracked so far, one after the other.
  func closeAll() async {
    let opened = databases.withLock { databases in
      defer { databases = [] }
      return databases
    }
    for database in opened { await database.close() }
  }
}
