import Backend
import NIOCore
import NIOPosix
import SystemSupport

extension BackendHTTPServer {
  /// Where the server runs a request's handler, once it has read the request.
  ///
  /// Each hop from one thread to another wakes the second, and on a loaded machine a wake is
  /// a context switch. A request read on an event loop and answered on other threads costs
  /// two: there and back. Its database query, answered on a connection's event loop, costs
  /// two more.
  public enum HandlerThreads: Sendable {
    /// Threads of their own, off the cooperative pool (`RequestExecutor`): for handlers
    /// that block their thread, as SQLite's synchronous calls do. A blocked handler holds up
    /// its own thread and nothing else.
    case executor(RequestExecutor)
    /// The event loop that read the request: for handlers that never block (a PostgreSQL
    /// store's, whose queries are written and answered on event loops). A handler that
    /// blocked here would hold up every connection of its loop.
    case eventLoop
  }
}

extension BackendHTTPServer.HandlerThreads {
  /// The task executor a handler prefers, for a request read on `eventLoop`.
  func executor(for eventLoop: any EventLoop) -> any TaskExecutor {
    switch self {
    case .executor(let executor): executor
    case .eventLoop: EventLoopTaskExecutor(eventLoop)
    }
  }
}

extension BackendHTTPServer {
  /// Returns once a no-op has run on every thread a request may be handled on: the backend's
  /// executor and each event loop. One of them stuck keeps it from returning: what the
  /// systemd watchdog is fed on.
  public static func handlerThreadsRespond() async {
    await withTaskExecutorPreference(APIBackend.executor) {}
    for eventLoop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
      try? await eventLoop.submit {}.get()
    }
  }
}
