import Domain
import Synchronization

/// Whether the app's server can be reached, held once for the session: every request feeds
/// it (Data's `ReachabilityReportingHTTPClient`), the prompt shows it, and the realtime
/// watch's pauses end early when it comes back.
///
/// - `online`: the last request was answered.
/// - `reconnecting`: one request failed on the network; one failure may be a blip (a
///   deploy, a connection a proxy dropped), so nothing is said yet.
/// - `offline`: a second failure in a row, before any answer. Said once, and `online` again
///   at the next answer.
///
/// Offline on a server that did not answer in time, one request asks it at a time
/// (whichever goes first: the shell's probe, the realtime poll, a command); the others fail
/// at once with what is known rather than each wait out the same time limit.
///
/// Fed from any thread; read and watched from any.
public final class ServerReachability: ServerReachabilityReporting, Sendable {
  public enum Status: Equatable, Sendable {
    case online
    case reconnecting
    case offline
  }

  private struct Inner {
    var status: Status
    var lastFailure: RemoteAPIError?
    /// Requests sent and not yet ended.
    var asking = 0
    var failures = 0
    var watchers: [Int: AsyncStream<Status>.Continuation] = [:]
    var nextWatcher = 0
  }

  private let inner: Mutex<Inner>

  public init(_ status: Status = .online) {
    inner = Mutex(Inner(status: status))
  }

  public var status: Status { inner.withLock { $0.status } }
  /// The newest network failure, for saying why the app is offline.
  public var lastFailure: RemoteAPIError? { inner.withLock { $0.lastFailure } }
  /// How many network failures have been reported so far: a caller compares two readings to
  /// learn whether its own requests met one.
  public var failures: Int { inner.withLock { $0.failures } }

  public func requestStarting() -> RemoteAPIError? {
    inner.withLock { inner in
      // Only a server that did not answer in time: a refusal or a 503 comes back at once
      // anyway, and a command's requests side by side must each have theirs.
      if inner.status == .offline, inner.asking > 0, case .timedOut? = inner.lastFailure {
        let last = inner.lastFailure.map { " (the last try: \($0))" } ?? ""
        return .unreachable(reason: "it is still not answering\(last)")
      }
      inner.asking += 1
      return nil
    }
  }

  public func requestEnded() {
    inner.withLock { $0.asking -= 1 }
  }

  public func serverAnswered() {
    move(to: .online, failure: nil)
  }

  public func serverOutOfReach(_ failure: RemoteAPIError) {
    let next: Status = status == .online ? .reconnecting : .offline
    inner.withLock { $0.failures += 1 }
    move(to: next, failure: failure)
  }

  /// How many are watching the changes now (pauses under way, the shell): for tests that
  /// must not change the status before a pause is watching.
  package var watcherCount: Int { inner.withLock { $0.watchers.count } }

  /// Each change of status from now on, in order, until the task iterating it is cancelled.
  public func changes() -> AsyncStream<Status> {
    let (stream, continuation) = AsyncStream<Status>.makeStream(bufferingPolicy: .unbounded)
    let id = inner.withLock { inner in
      defer { inner.nextWatcher += 1 }
      inner.watchers[inner.nextWatcher] = continuation
      return inner.nextWatcher
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.inner.withLock { $0.watchers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Waits `duration` on `clock`, or less: until the status changes to `online`, since a
  /// request somebody else made found the server answering. Throws when cancelled.
  public func pause(for duration: Duration, on clock: any Clock<Duration>) async throws {
    let changes = changes()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await clock.sleep(for: duration) }
      group.addTask {
        for await status in changes where status == .online { return }
      }
      try await group.next()
      group.cancelAll()
    }
    try Task.checkCancellation()
  }

  private func move(to status: Status, failure: RemoteAPIError?) {
    inner.withLock { inner in
      if let failure { inner.lastFailure = failure }
      guard inner.status != status else { return }
      inner.status = status
      // Yielded under the lock, so every watcher sees the changes in the order they were
      // made; an unbounded stream's yield never waits, and calls nothing back.
      for watcher in inner.watchers.values { watcher.yield(status) }
    }
  }
}
