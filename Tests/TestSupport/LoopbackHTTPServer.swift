import Data
import Foundation
import Hummingbird
import Logging
import Synchronization

/// An HTTP server on 127.0.0.1 for tests, on Hummingbird 2 (SwiftNIO): each request goes to
/// `handler`, whose answer a test decides (the embedded backend over real HTTP, a 500 page,
/// broken JSON, an answer that never comes). It lets the real `URLSessionHTTPClient` and
/// the built `app` binary talk to a server they only know by its URL.
///
/// Requests are answered on SwiftNIO's event loops and on a thread of the server's own
/// (`DedicatedExecutor`), never on one that waits for the cooperative pool, so a busy
/// parallel suite cannot starve it.
public final class LoopbackHTTPServer: Sendable {
  public typealias Handler = @Sendable (BackendHTTPRequest) async -> BackendHTTPResponse

  public let port: Int
  private let listener: Listener
  private let running: Task<Void, any Error>
  private let log: RequestLog

  private init(listener: Listener, running: Task<Void, any Error>, log: RequestLog) {
    self.port = listener.port
    self.listener = listener
    self.running = running
    self.log = log
  }

  /// The listening socket: its port, and a way to close it.
  private struct Listener: Sendable {
    let port: Int
    let close: @Sendable () async -> Void
  }

  /// Starts a server on a free port and returns once it listens.
  public static func start(handler: @escaping Handler) async throws -> LoopbackHTTPServer {
    let log = RequestLog()
    let (bound, announce) = AsyncStream<Listener>.makeStream()
    var logger = Logger(label: "test-http-server")
    logger.logLevel = .critical
    let application = Application(
      responder: CallbackResponder<BasicRequestContext> { request, _ in
        let translated = try await Self.translate(request)
        log.append("\(translated.method) \(request.uri.path)")
        return Self.response(await handler(translated))
      },
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        announce.yield(
          Listener(port: channel.localAddress?.port ?? 0, close: { try? await channel.close() }))
        announce.finish()
      },
      logger: logger)
    // The server and every request it answers run on a thread of its own (child tasks
    // inherit the preference), never waiting for the cooperative pool: see DedicatedExecutor.
    let executor = DedicatedExecutor(label: "test-http-server")
    let running = Task(executorPreference: executor) {
      // If the server cannot start, the wait below ends instead of waiting for ever.
      defer { announce.finish() }
      try await application.runService(gracefulShutdownSignals: [])
    }
    var listeners = bound.makeAsyncIterator()
    guard let listener = await listeners.next(), listener.port > 0 else {
      running.cancel()
      throw ServerError(
        "the test server did not start: \(String(describing: await running.result))")
    }
    return LoopbackHTTPServer(listener: listener, running: running, log: log)
  }

  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// "METHOD /path" of every request so far, in order.
  public var requests: [String] { log.entries.withLock { $0 } }

  /// Stops listening and returns once the port is closed: the next connection is refused.
  /// (The listening socket is closed first and directly, so that no connection is accepted
  /// while the server winds down.)
  public func stop() async {
    await listener.close()
    running.cancel()
    _ = await running.result
  }

  /// Stops the server without waiting, for `defer` blocks.
  public func cancel() {
    let listener = listener
    Task { await listener.close() }
    running.cancel()
  }

  /// A port on which nothing listens: for "server down".
  public static func closedPort() async throws -> Int {
    let server = try await start { _ in BackendHTTPResponse(status: 500) }
    await server.stop()
    return server.port
  }

  // MARK: - Translation

  private static func translate(_ request: Request) async throws -> BackendHTTPRequest {
    let body = try await request.body.collect(upTo: 64 << 20)
    let target = request.uri.description
    let components = URLComponents(string: target)
    let segments = (components?.percentEncodedPath ?? request.uri.path).split(separator: "/")
      .map { String($0).removingPercentEncoding ?? String($0) }
    let query = Dictionary(
      (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    var headers: [String: String] = [:]
    for field in request.headers { headers[field.name.canonicalName] = field.value }
    return BackendHTTPRequest(
      method: request.method.rawValue, pathSegments: segments, query: query, headers: headers,
      body: Data(body.readableBytesView))
  }

  private static func response(_ answer: BackendHTTPResponse) -> Response {
    var fields = HTTPFields()
    for (name, value) in answer.headers where name.lowercased() != "content-length" {
      if let fieldName = HTTPFields.Element.Name(name) { fields[fieldName] = value }
    }
    return Response(
      status: .init(code: answer.status), headers: fields,
      body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
  }

  struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// The requests a server saw, shared between its handler tasks and the test.
private final class RequestLog: Sendable {
  let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
}
