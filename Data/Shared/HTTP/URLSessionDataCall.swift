import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One URLSession data request as an async call that resumes exactly once and whose
/// cancellation can never deadlock.
///
/// Why not `URLSession.data(for:)`: on Linux its cancellation handler calls
/// `URLSessionTask.cancel()` synchronously, and that waits on the session's work queue while
/// the cancelling thread holds the awaiting task's status lock. If the request completes at
/// that moment, the work queue is resuming the same task and waits for that lock: both sides
/// wait for ever. (Seen as `app push status` hanging when one backend failed and `async let`
/// cancelled the other call.) Here the cancel is handed to another queue, so the cancelling
/// thread never waits.
enum URLSessionDataCall {
  static func run(_ request: URLRequest, on session: URLSession) async throws -> (
    Data, URLResponse
  ) {
    let call = DataCallState()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          if let data, let response {
            call.finish(.success((data, response)))
          } else {
            call.finish(.failure(error ?? URLError(.badServerResponse)))
          }
        }
        call.start(task, continuation)
      }
    } onCancel: {
      call.cancel()
    }
  }
}

/// The continuation and the URLSession task of one call. Whichever of "the request
/// finished" and "the caller cancelled" comes first resumes the continuation; the other does
/// nothing.
private final class DataCallState: Sendable {
  private struct Parts: @unchecked Sendable {
    var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    var task: URLSessionDataTask?
    var cancelled = false
    var resumed = false
  }

  private let parts = Mutex(Parts())

  /// Starts the request, unless the caller was cancelled before it could start.
  func start(
    _ task: URLSessionDataTask, _ continuation: CheckedContinuation<(Data, URLResponse), any Error>
  ) {
    let alreadyCancelled = parts.withLock { parts in
      parts.continuation = continuation
      parts.task = task
      return parts.cancelled
    }
    if alreadyCancelled {
      finish(.failure(CancellationError()))
    } else {
      task.resume()
    }
  }

  func finish(_ result: Result<(Data, URLResponse), any Error>) {
    let waiting = parts.withLock { parts -> CheckedContinuation<(Data, URLResponse), any Error>? in
      guard !parts.resumed, let continuation = parts.continuation else { return nil }
      parts.resumed = true
      parts.continuation = nil
      return continuation
    }
    waiting?.resume(with: result)
  }

  /// Cancels the request and resumes the caller with `CancellationError`. Runs in the
  /// cancellation handler, under the runtime's task lock, so it only flips a flag and hands
  /// the work to another queue (see `URLSessionDataCall` for why).
  func cancel() {
    let task = parts.withLock { parts -> URLSessionDataTask? in
      parts.cancelled = true
      return parts.task
    }
    guard let task else { return }
    let cancelling = UncheckedTask(task)
    DispatchQueue.global().async {
      self.finish(.failure(CancellationError()))
      cancelling.task.cancel()
    }
  }
}

/// A URLSession task handed to the queue that cancels it; `cancel()` is thread-safe.
private struct UncheckedTask: @unchecked Sendable {
  let task: URLSessionDataTask
  init(_ task: URLSessionDataTask) { self.task = task }
}
