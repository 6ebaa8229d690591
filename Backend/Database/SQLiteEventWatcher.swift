import GRDB

/// Finds the events other processes write to the same SQLite file, while polls wait.
///
/// SQLite tells no other process of a commit, and this process signals its own writes as
/// it makes them. So once a second, and only while some poll waits, one read asks for the
/// events numbered above the highest it has seen, and wakes the polls of their accounts.
/// Each waiting poll used to read its own events every second instead: 5,000 polls made
/// 5,000 reads a second on an idle server (docs/server.md).
///
/// Event numbers only grow (`AUTOINCREMENT`), and SQLite commits one write at a time, so
/// an event committed after a read has a number above everything that read saw.
struct SQLiteEventWatcher: EventWatcher {
  let reader: any DatabaseReader

  func watch(_ signal: EventSignal, on clock: any Clock<Duration>) async {
    var seen: Int?
    while true {
      if let last = seen {
        do {
          for (seq, accountID) in try eventsAbove(last) {
            seen = max(seen ?? seq, seq)
            signal.signal(accountID)
          }
        } catch {
          seen = nil
        }
      }
      if seen == nil {
        seen = try? highestEvent()
        // A poll that read before `seen` was taken may have missed an event at or below it:
        // every waiting poll looks once more, and one that reads after this has seen them.
        // Without `seen` (the file does not answer) the polls read for themselves each
        // second, and report what the file says.
        signal.wakeAll(live: seen != nil)
      }
      try? await clock.sleep(for: .seconds(1))
      // Cancelled by `EventSignal.stopWatching`: the file is closing.
      guard !Task.isCancelled, signal.isAwaited() else { return }
    }
  }

  private func highestEvent() throws -> Int {
    try reader.read { try Int.fetchOne($0, sql: "SELECT MAX(seq) FROM likeEvent") ?? 0 }
  }

  private func eventsAbove(_ seq: Int) throws -> [(Int, String)] {
    try reader.read { db in
      try Row.fetchAll(
        db, sql: "SELECT seq, accountID FROM likeEvent WHERE seq > ? ORDER BY seq", arguments: [seq]
      ).map { ($0[0], $0[1]) }
    }
  }
}
