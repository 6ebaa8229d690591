import Synchronization

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// Resumes a continuation at most once, whichever of value, failure or finish comes first.
final class ResumeOnce<Value: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<Value, Error>?>

  init(_ continuation: CheckedContinuation<Value, Error>) {
    self.continuation = Mutex(continuation)
  }

  func resume(returning value: Value) {
    take()?.resume(returning: value)
  }

  func resume(throwing error: Error) {
    take()?.resume(throwing: error)
  }

  private func take() -> CheckedContinuation<Value, Error>? {
    continuation.withLock { stored in
      defer { stored = nil }
      return stored
    }
  }
}

/// Holds a subscription so that task cancellation can cancel it from another thread.
final class SubscriptionBox: Sendable {
  private struct State {
    var subscription: Cancellation?
    var cancelled = false
  }

  private let state = Mutex(State())

  func set(_ subscription: AnyCancellable) {
    let held = Cancellation(subscription)
    // Kept, or cancelled here when the task was cancelled first.
    let keep = state.withLock { state in
      guard !state.cancelled else { return false }
      state.subscription = held
      return true
    }
    if !keep { held.cancellable.cancel() }
  }

  func cancel() {
    let current = state.withLock { state in
      state.cancelled = true
      defer { state.subscription = nil }
      return state.subscription
    }
    current?.cancellable.cancel()
  }
}

/// An `AnyCancellable` handed between threads. Safe because `SubscriptionBox` calls
/// `cancel()` on each one once at most, from one place: `set` when the task was already
/// cancelled (and then the box never stored it), or `cancel` after taking it out of the
/// box under the lock (and then `set` had stored it). The two never both happen.
private struct Cancellation: @unchecked Sendable {
  let cancellable: AnyCancellable
  init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
}
