import Backend
import BackendServer
import Foundation

/// The served backend (`TestServerApplication`) on a free port of the test's own process:
/// for tests whose clients are other processes (`app` as two devices), which need a URL.
public final class InProcessServer: Sendable {
  public let url: String
  private let server: BackendHTTPServer
  private let served: TestServerApplication

  private init(url: String, server: BackendHTTPServer, served: TestServerApplication) {
    self.url = url
    self.server = server
    self.served = served
  }

  public static func start() async throws -> InProcessServer {
    let served = try TestServerApplication()
    let server = try await served.application.start()
    return InProcessServer(url: server.baseURL.absoluteString, server: server, served: served)
  }

  public var port: Int { server.port }

  /// The access log so far: one line per answered request.
  public var accessLog: String { served.accessLog }

  /// Stops the server gracefully and waits for it; returns the access log.
  @discardableResult public func stop() async throws -> String {
    await server.stop()
    try await server.waitUntilStopped()
    return served.accessLog
  }

  /// Starts the graceful shutdown without waiting for it, for `defer` blocks.
  public func cancel() {
    server.triggerStop()
  }
}
