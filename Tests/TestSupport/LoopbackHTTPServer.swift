import Backend
import BackendServer
import Foundation
import Synchronization

/// The backend's own HTTP server (`BackendHTTPServer`, the one `app serve` runs) on
/// 127.0.0.1 for tests, with answers a test decides (the embedded backend over real HTTP, a
/// 500 page, broken JSON, an answer that never comes) and a log of the requests it saw. It
/// lets the real `URLSessionHTTPClient` and the built `app` binary talk to a server they
/// only know by its URL.
public final class LoopbackHTTPServer: Sendable {
  public typealias Handler = BackendHTTPServer.Handler

  private let server: BackendHTTPServer
  private let log: RequestLog

  private init(server: BackendHTTPServer, log: RequestLog) {
    self.server = server
    self.log = log
  }

  /// Starts a server on a free port and returns once it listens.
  public static func start(handler: @escaping Handler) async throws -> LoopbackHTTPServer {
    let log = RequestLog()
    // Its tests decide every answer, large posts included: the limits of the old server.
    let everything = BodyLimits(messages: 64 << 20, other: 64 << 20)
    let server = try await BackendHTTPServer.start(.init(bodyLimits: everything)) { request in
      log.append("\(request.method) /\(request.pathSegments.joined(separator: "/"))")
      return await handler(request)
    }
    return LoopbackHTTPServer(server: server, log: log)
  }

  public var port: Int { server.port }
  public var baseURL: URL { server.baseURL }

  /// "METHOD /path" of every request so far, in order.
  public var requests: [String] { log.entries.withLock { $0 } }

  /// Stops listening and returns once the port is closed: the next connection is refused.
  /// A graceful shutdown: a handler that holds its answer must be released first.
  public func stop() async {
    await server.stop()
  }

  /// Starts the graceful shutdown without waiting for it, for `defer` blocks.
  public func cancel() {
    server.triggerStop()
  }

  /// A port on which nothing listens: for "server down".
  public static func closedPort() async throws -> Int {
    let server = try await start { _ in BackendHTTPResponse(status: 500) }
    await server.stop()
    return server.port
  }
}

/// The requests a server saw, shared between its handler tasks and the test.
private final class RequestLog: Sendable {
  let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
}
