import Synchronization

/// A result that can be settled once, by whichever of a call, its timers and its task's
/// cancellation comes first. The handler runs exactly once: at `settle` when it is already
/// set, or at `onSettled` when the result came first (a cancellation before the wait began).
final class SettledOnce<Value: Sendable>: Sendable {
  private struct State {
    var value: Value?
    var handler: (@Sendable (Value) -> Void)?
  }

  private let state = Mutex(State())

  func onSettled(_ handler: @escaping @Sendable (Value) -> Void) {
    let settled: Value? = state.withLock { state in
      if state.value == nil { state.handler = handler }
      return state.value
    }
    if let settled { handler(settled) }
  }

  var isSettled: Bool { state.withLock { $0.value != nil } }

  /// Returns true for the first caller only.
  @discardableResult
  func settle(_ value: Value) -> Bool {
    let (first, handler): (Bool, (@Sendable (Value) -> Void)?) = state.withLock { state in
      guard state.value == nil else { return (false, nil) }
      state.value = value
      defer { state.handler = nil }
      return (true, state.handler)
    }
    handler?(value)
    return first
  }
}
