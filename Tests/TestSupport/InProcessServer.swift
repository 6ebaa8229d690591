import Backend
import Foundation
import Synchronization

/// The served backend as `app serve` builds it (`buildApplication`), in the test's own
/// process on a free port, over a SQLite file of its own: the server's behaviour on real
/// sockets without starting a binary. Its access log is kept for the test to read.
public final class InProcessServer: Sendable {
  public let url: String
  private let server: BackendHTTPServer
  private let log: LogLines
  private let folder: URL

  private init(url: String, server: BackendHTTPServer, log: LogLines, folder: URL) {
    self.url = url
    self.server = server
    self.log = log
    self.folder = folder
  }

  public static func start(
    messageLimitMiB: Int = 16, idleTimeout: Duration = .seconds(30),
    logFormat: AccessLog.Format = .text, pathPrefix: [String] = []
  ) async throws -> InProcessServer {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("in-process-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let lines = LogLines()
    let application = buildApplication(
      APIServerConfiguration(
        http: .init(
          bodyLimits: BodyLimits(messages: messageLimitMiB << 20), idleTimeout: idleTimeout,
          pathPrefix: pathPrefix),
        accessLog: AccessLog(
          format: logFormat, now: { Date() }, write: lines.append),
        passwordRounds: 1_000, now: { Date() },
        randomBytes: { count in (0..<count).map { _ in UInt8.random(in: 0...255) } },
        clock: ContinuousClock()),
      store: .file(folder.appendingPathComponent("backend.sqlite")))
    let server = try await application.start()
    let base = server.baseURL.absoluteString
    return InProcessServer(
      url: pathPrefix.isEmpty ? base : base + "/" + pathPrefix.joined(separator: "/"),
      server: server, log: lines, folder: folder)
  }

  public var port: Int { server.port }

  /// What stopping gave: `status` 0 when every request in flight was answered and the server
  /// stopped without an error, and the access log so far.
  public struct Stopped: Sendable {
    public let status: Int32
    public let stderr: String
  }

  /// Stops the server gracefully, waits for it, and removes its files.
  public func stop() async throws -> Stopped {
    await server.stop()
    let failed = (try? await server.waitUntilStopped()) == nil
    try? FileManager.default.removeItem(at: folder)
    return Stopped(status: failed ? 1 : 0, stderr: log.text)
  }

  /// Starts the graceful shutdown without waiting for it, for `defer` blocks.
  public func cancel() {
    server.triggerStop()
  }
}

/// The access log's lines, written from the server's threads and read by the test.
private final class LogLines: Sendable {
  private let lines = Mutex("")

  @Sendable func append(_ line: String) { lines.withLock { $0 += line } }

  var text: String { lines.withLock { $0 } }
}
