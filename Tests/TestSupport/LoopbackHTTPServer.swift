import Data
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
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
  private let services: ServiceGroup
  private let running: Task<Void, any Error>
  private let log: RequestLog

  private init(port: Int, services: ServiceGroup, running: Task<Void, any Error>, log: RequestLog) {
    self.port = port
    self.services = services
    self.running = running
    self.log = log
  }

  /// Starts a server on a free port and returns once it listens.
  public static func start(handler: @escaping Handler) async throws -> LoopbackHTTPServer {
    let log = RequestLog()
    let (bound, announce) = AsyncStream<Int>.makeStream()
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
        announce.yield(channel.localAddress?.port ?? 0)
        announce.finish()
      },
      logger: logger)
    // The server and every request it answers run on a thread of its own (child tasks
    // inherit the preference), never waiting for the cooperative pool: see DedicatedExecutor.
    let executor = DedicatedExecutor(label: "test-http-server")
    let services = ServiceGroup(services: [application], logger: logger)
    let running = Task(executorPreference: executor) {
      // If the server cannot start, the wait below ends instead of waiting for ever.
      defer { announce.finish() }
      try await services.run()
    }
    var ports = bound.makeAsyncIterator()
    guard let port = await ports.next(), port > 0 else {
      running.cancel()
      throw ServerError(
        "the test server did not start: \(String(describing: await running.result))")
    }
    return LoopbackHTTPServer(port: port, services: services, running: running, log: log)
  }

  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// "METHOD /path" of every request so far, in order.
  public var requests: [String] { log.entries.withLock { $0 } }

  /// Stops listening and returns once the port is closed: the next connection is refused.
  ///
  /// A graceful shutdown, never a cancellation: it closes the listening socket, then serves
  /// every connection already accepted and waits for the requests in flight, so a handler
  /// that holds its answer must be released first. Cancelling the server instead drops
  /// connections SwiftNIO has accepted but not yet handed over, and SwiftNIO traps on that
  /// ("Deinited NIOAsyncWriter without calling finish()").
  public func stop() async {
    await services.triggerGracefulShutdown()
    _ = await running.result
  }

  /// Starts the graceful shutdown without waiting for it, for `defer` blocks.
  public func cancel() {
    let services = services
    Task { await services.triggerGracefulShutdown() }
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
