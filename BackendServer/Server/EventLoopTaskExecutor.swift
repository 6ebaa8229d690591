import NIOCore

/// An event loop as a task executor: code that prefers it (`withTaskExecutorPreference`) runs
/// on the loop's thread, and so do the nonisolated async functions it calls, with no hop
/// between them.
///
/// Two places need that. `rowsUnlessClosed` asks whether a database connection is open and
/// hands it a prepared statement in one turn of the connection's loop. The HTTP server runs
/// a handler that never blocks on the loop that read its request
/// (`BackendHTTPServer.HandlerThreads.eventLoop`), so that no thread is woken to answer it.
final class EventLoopTaskExecutor: TaskExecutor {
  private let eventLoop: any EventLoop

  init(_ eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
