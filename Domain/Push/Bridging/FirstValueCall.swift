import Synchronization

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// The state `firstValue()` shares between the awaiting task, the publisher's callbacks (on
/// any thread) and the cancellation handler (on the cancelling thread).
///
/// Every path goes through one lock and takes the continuation out of it, so exactly one of
/// them resumes it: `finish` (a value, a failure or an empty finish), `cancel`, or `start`
/// when cancellation came before there was a continuation to resume.
final class FirstValueCall<Value: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Value, Error>?
    var subscription: HeldSubscription?
    var cancelled = false
    var finished = false
  }

  private let state = Mutex(State())

  /// Keeps the continuation, or resumes it with `CancellationError` at once when the task
  /// was cancelled before the call began. Returns whether to subscribe.
  func start(_ continuation: CheckedContinuation<Value, Error>) -> Bool {
    let alreadyCancelled = state.withLock { state in
      if !state.cancelled { state.continuation = continuation }
      return state.cancelled
    }
    if alreadyCancelled { continuation.resume(throwing: CancellationError()) }
    return !alreadyCancelled
  }

  /// Keeps the subscription alive until the call ends; cancels it at once when the call was
  /// cancelled while the publisher was being subscribed to.
  func hold(_ subscription: AnyCancellable) {
    let held = HeldSubscription(subscription)
    let cancelNow = state.withLock { state in
      guard !state.cancelled, !state.finished else { return state.cancelled }
      state.subscription = held
      return false
    }
    if cancelNow { held.cancel() }
  }

  /// The publisher answered: the first answer wins, later ones are ignored.
  func finish(_ result: Result<Value, Error>) {
    let (continuation, subscription) = state.withLock { state in
      state.finished = true
      defer {
        state.continuation = nil
        state.subscription = nil
      }
      return (state.continuation, state.subscription)
    }
    // The subscription is released outside the lock; a finished publisher needs no cancel.
    _ = subscription
    continuation?.resume(with: result)
  }

  /// The task was cancelled: cancel the subscription and resume, unless an answer came first.
  func cancel() {
    let (continuation, subscription) = state.withLock { state in
      state.cancelled = true
      defer {
        state.continuation = nil
        state.subscription = nil
      }
      return (state.continuation, state.subscription)
    }
    // The caller goes on first: a publisher's cancel may be slow, and it runs here, in the
    // cancellation handler, where nothing should wait.
    continuation?.resume(throwing: CancellationError())
    subscription?.cancel()
  }
}

/// An `AnyCancellable` handed between threads. `FirstValueCall` takes it out of its lock
/// before cancelling it, so `cancel()` runs once at most, from one thread.
private struct HeldSubscription: @unchecked Sendable {
  private let cancellable: AnyCancellable
  init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
  func cancel() { cancellable.cancel() }
}
