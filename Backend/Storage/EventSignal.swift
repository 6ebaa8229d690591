import Synchronization

/// Wakes the long polls waiting for an account's events as soon as one may have been written,
/// by this process or, through PostgreSQL's notifications, by any instance.
///
/// It only ever says "look again": the events table stays the truth, and a poll re-reads it
/// after each wake. A wake that comes early costs a read; one that never comes costs the
/// fallback nap (`LikesRoutes`). A poll takes a `Mark` before it reads the events, and
/// `wait` returns at once when a signal came after that mark, so a signal given while the
/// poll was still reading is never lost.
///
/// A store whose other processes cannot signal (SQLite) gives it a watcher: one task that,
/// while any poll waits, looks for their writes and signals them (`SQLiteEventWatcher`).
package final class EventSignal: Sendable {
  /// The signals seen when a poll last read.
  package struct Mark: Equatable {
    fileprivate let epoch: UInt64
    fileprivate let generation: UInt64
  }

  private struct Waiter {
    let accountID: String
    let mark: Mark
    let continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var generations: [String: UInt64] = [:]
    /// Moves on `wakeAll`: a waiter of any account wakes.
    var epoch: UInt64 = 0
    var waiters: [UInt64: Waiter] = [:]
    /// Waits cancelled before they registered: they return as soon as they try.
    var cancelled: Set<UInt64> = []
    var nextID: UInt64 = 0
    var isLive: Bool
    /// Whether the watcher's task runs: started by the first waiter, ended by the watcher
    /// when it finds nobody waiting (`isAwaited`).
    var isWatching = false
    /// The watcher's task while it runs, for `stopWatching` to wait for.
    var watching: Task<Void, Never>?
    /// Set by `stopWatching`: the store is closing, and no watcher starts again.
    var isStopped = false

    func mark(_ accountID: String) -> Mark {
      Mark(epoch: epoch, generation: generations[accountID, default: 0])
    }

    /// Removes the waiters that `matches` picks and returns their continuations, to resume
    /// outside the lock.
    mutating func take(_ matches: (Waiter) -> Bool) -> [CheckedContinuation<Void, Never>] {
      let picked = waiters.filter { matches($0.value) }
      for id in picked.keys { waiters[id] = nil }
      return picked.values.map(\.continuation)
    }
  }

  private let state: Mutex<State>
  private let watcher: (any EventWatcher)?

  /// `watcher`, when given, finds what other processes write: signals are then live as soon
  /// as it runs. Without one they are live once `wakeAll(live: true)` says so.
  package init(watcher: (any EventWatcher)? = nil) {
    self.watcher = watcher
    state = Mutex(State(isLive: watcher != nil))
  }

  /// Whether another process's writes are signalled too (a PostgreSQL listener is
  /// connected). When not, a poll re-reads the events every second to find them.
  package var isLive: Bool { state.withLock { $0.isLive } }

  package func mark(_ accountID: String) -> Mark {
    state.withLock { $0.mark(accountID) }
  }

  /// Long polls waiting now: what a test watches for before it writes.
  package var waiterCount: Int { state.withLock { $0.waiters.count } }

  /// An event of the account may have been written.
  package func signal(_ accountID: String) {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.generations[accountID, default: 0] &+= 1
      return state.take { $0.accountID == accountID }
    }
    for continuation in woken { continuation.resume() }
  }

  /// Every waiter looks again, and whether signals are live changes: the listener connected
  /// or was lost, and what happened meanwhile is unknown.
  package func wakeAll(live: Bool) {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.epoch &+= 1
      state.isLive = live
      return state.take { _ in true }
    }
    for continuation in woken { continuation.resume() }
  }

  /// Returns when the account was signalled after `mark`, or `timeout` has passed on `clock`,
  /// or the task is cancelled.
  package func wait(
    _ accountID: String, since mark: Mark, upTo timeout: Duration, on clock: any Clock<Duration>
  ) async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { try? await clock.sleep(for: timeout) }
      group.addTask { await self.wait(accountID, since: mark, on: clock) }
      await group.next()
      group.cancelAll()
    }
  }

  /// Whether any poll waits; when none does, the watcher stops, and the next waiter starts
  /// it again. False once `stopWatching` was called.
  package func isAwaited() -> Bool {
    state.withLock { state in
      if state.waiters.isEmpty || state.isStopped { state.isWatching = false }
      return state.isWatching
    }
  }

  /// Ends the watcher and returns once it has ended: the store it reads is about to close,
  /// and a read that began as the store closed would crash. No watcher starts after this.
  package func stopWatching() async {
    let watching = state.withLock { state -> Task<Void, Never>? in
      state.isStopped = true
      defer { state.watching = nil }
      return state.watching
    }
    watching?.cancel()
    await watching?.value
  }

  private func wait(_ accountID: String, since mark: Mark, on clock: any Clock<Duration>) async {
    let id = state.withLock { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.cancelled.remove(id) != nil || state.mark(accountID) != mark {
            return true
          }
          state.waiters[id] = Waiter(accountID: accountID, mark: mark, continuation: continuation)
          if let watcher, !state.isWatching, !state.isStopped {
            state.isWatching = true
            // Made under the lock, so that `stopWatching` always finds the one that runs.
            // Its reads block their thread: on the backend's executor, never the cooperative
            // pool.
            state.watching = Task(executorPreference: APIBackend.executor) {
              await watcher.watch(self, on: clock)
            }
          }
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
        state.cancelled.insert(id)
        return nil
      }
      waiter?.continuation.resume()
    }
    // A cancellation that came after a signal had already resumed the wait left its mark.
    state.withLock { _ = $0.cancelled.remove(id) }
  }
}

/// Looks, while polls wait, for events that the store's other processes wrote, and signals
/// their accounts. `watch` returns once `signal.isAwaited()` is false.
package protocol EventWatcher: Sendable {
  func watch(_ signal: EventSignal, on clock: any Clock<Duration>) async
}
