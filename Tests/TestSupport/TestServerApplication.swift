import Backend
import BackendServer
import Foundation
import Synchronization

/// The served backend as `app serve` builds it (`buildApplication`), over a SQLite file of
/// its own in a temporary folder, with its access log kept for the test to read. A demo
/// unless told otherwise (`demo: nil`): most server tests sign in as its account.
///
/// Run it with HummingbirdTesting (`application.test(.router)` sends requests straight to its
/// responder), or on a free port of its own (`application.start()`, or `InProcessServer`).
/// The folder goes when the test lets go of it.
public final class TestServerApplication: Sendable {
  public let application: APIServerApplication
  private let folder: URL
  private let lines: LogLines

  public init(
    messageLimitMiB: Int = 16, idleTimeout: Duration = .seconds(30),
    logFormat: AccessLog.Format = .text, pathPrefix: [String] = [], maxConnections: Int = 1_024,
    demo: DemoPeople? = DemoPeople()
  ) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("test-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let lines = LogLines()
    self.lines = lines
    application = try buildApplication(
      APIServerConfiguration(
        http: .init(
          bodyLimits: BodyLimits(messages: messageLimitMiB << 20), idleTimeout: idleTimeout,
          maxConnections: maxConnections, pathPrefix: pathPrefix),
        accessLog: AccessLog(format: logFormat, now: { Date() }, write: lines.append),
        passwordRounds: 1_000, demo: demo, now: { Date() },
        randomBytes: { count in (0..<count).map { _ in UInt8.random(in: 0...255) } },
        clock: ContinuousClock()),
      storage: .sqliteFile(folder.appendingPathComponent("backend.sqlite")))
  }

  /// The access log so far: one line per answered request.
  public var accessLog: String { lines.text }

  deinit { try? FileManager.default.removeItem(at: folder) }
}

/// The access log's lines, written from the server's threads and read by the test.
private final class LogLines: Sendable {
  private let lines = Mutex("")

  @Sendable func append(_ line: String) { lines.withLock { $0 += line } }

  var text: String { lines.withLock { $0 } }
}
