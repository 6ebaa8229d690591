import Synchronization

/// The requests a backend is answering, so that closing it waits for them: a store closed
/// under a read crashes the process (GRDB hands the read a connection it has just closed),
/// and a request that comes after the close is refused rather than run on nothing.
final class RequestsInFlight: Sendable {
  private struct State {
    var count = 0
    var isClosed = false
    /// `close` callers waiting for the last request to end.
    var drained: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  /// Counts a request in; false once the backend is closing, when it must not run.
  func enter() -> Bool {
    state.withLock { state in
      guard !state.isClosed else { return false }
      state.count += 1
      return true
    }
  }

  /// Counts a request out, and lets a waiting `close` go on when it was the last.
  func leave() {
    let drained = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.drained = [] }
      return state.drained
    }
    for continuation in drained { continuation.resume() }
  }

  /// Refuses every request from now on, and returns once those already in have ended.
  /// Not cancellable: what waits for it is about to close the store they use.
  func closeAndDrain() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isDrained = state.withLock { state -> Bool in
        state.isClosed = true
        guard state.count > 0 else { return true }
        state.drained.append(continuation)
        return false
      }
      if isDrained { continuation.resume() }
    }
  }
}
