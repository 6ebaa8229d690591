import NIOCore

/// A connection's event loop as a task executor: code that prefers it
/// (`withTaskExecutorPreference`) runs on the loop's thread, and so do the nonisolated async
/// functions it calls, with no hop between them. `rowsUnlessClosed` needs that for prepared
/// statements: asking whether the connection is open and handing it the statement must be
/// one turn of the loop.
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
