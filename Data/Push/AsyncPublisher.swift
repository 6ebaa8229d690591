import Synchronization

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// A publisher that runs `work` once per subscriber and publishes its result: how the
/// async HTTP adapters answer the seed's publisher-returning protocols.
///
/// The work runs in a task of its own, which the subscription owns: cancelling the
/// subscription cancels the task (and so the HTTP request under way), so that a call
/// abandoned by its caller does not go on in the background.
func asyncPublisher<Output: Sendable>(
  _ work: @escaping @Sendable () async throws -> Output
) -> AnyPublisher<Output, Error> {
  Deferred {
    let running = RunningWork()
    return Future<Output, Error> { promise in
      let fulfil = Promise(promise)
      running.start {
        do {
          fulfil(.success(try await work()))
        } catch {
          fulfil(.failure(error))
        }
      }
    }
    .handleEvents(receiveCancel: { running.cancel() })
  }
  .eraseToAnyPublisher()
}

/// The task behind one subscription, cancellable from whichever thread cancels it.
private final class RunningWork: Sendable {
  private let task = Mutex<Task<Void, Never>?>(nil)

  func start(_ body: @escaping @Sendable () async -> Void) {
    task.withLock { $0 = Task(operation: body) }
  }

  func cancel() {
    task.withLock { $0 }?.cancel()
  }
}

/// A Future's promise handed to the task that fulfils it. Future's promise may be called
/// from any thread, and this one is called once, by that task alone.
private struct Promise<Output>: @unchecked Sendable {
  let promise: (Result<Output, Error>) -> Void
  init(_ promise: @escaping (Result<Output, Error>) -> Void) { self.promise = promise }
  func callAsFunction(_ result: Result<Output, Error>) { promise(result) }
}
