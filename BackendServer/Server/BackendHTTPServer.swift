import Backend
import Contract
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import SystemSupport
import UnixSignals

/// The backend as a real HTTP server, on Hummingbird 2 (SwiftNIO): each request goes to
/// `handler` (the backend's router, or a test's scripted answer). `app serve` and every test
/// over real HTTP use it.
///
/// It runs in a swift-service-lifecycle `ServiceGroup`, so stopping is always a graceful
/// shutdown: the listening socket closes, and the requests in flight are answered first.
/// Requests are handled on a `RequestExecutor`, never on the cooperative pool.
public final class BackendHTTPServer: Sendable {
  public typealias Handler = @Sendable (BackendHTTPRequest) async -> BackendHTTPResponse

  public struct Configuration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Signals that start the graceful shutdown (`app serve`: SIGINT and SIGTERM).
    public var shutdownSignals: [UnixSignal]
    /// Told of each answered request (see `AccessLogEntry`).
    public var accessLog: (@Sendable (AccessLogEntry) -> Void)?
    /// The largest request body each route takes.
    public var bodyLimits: BodyLimits
    /// A connection with no request under way for this long is closed: an idle keep-alive,
    /// or headers that never finish arriving. A request being answered (a long poll) is
    /// never cut by it.
    public var idleTimeout: Duration
    /// Connections served at once; past this, a new one is answered `503` with
    /// `Retry-After` and closed (see `ConnectionCap`).
    public var maxConnections: Int
    /// Serves https with this certificate and key; nil serves plain http.
    public var tls: ServerTLS?
    /// Where request handlers run; nil gives the server a `RequestExecutor` of its own.
    /// `app serve` passes the backend's executor, so that a request does not go from one
    /// executor's thread to another's and back, or, on PostgreSQL, the event loop.
    public var handlerThreads: HandlerThreads?
    /// Services that run beside the server: started with it, and stopped only after it has
    /// answered its last request (the database's connection pool and its listener).
    public var services: [any Service]
    /// Path segments the API is served under (`["api", "v1"]` serves `/api/v1/me`); a
    /// request outside them is a `404`.
    public var pathPrefix: [String]

    public init(
      host: String = "127.0.0.1", port: Int = 0, shutdownSignals: [UnixSignal] = [],
      accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil,
      bodyLimits: BodyLimits = BodyLimits(), idleTimeout: Duration = .seconds(30),
      maxConnections: Int = 1_024, tls: ServerTLS? = nil, handlerThreads: HandlerThreads? = nil,
      services: [any Service] = [], pathPrefix: [String] = []
    ) {
      self.host = host
      self.port = port
      self.shutdownSignals = shutdownSignals
      self.accessLog = accessLog
      self.bodyLimits = bodyLimits
      self.idleTimeout = idleTimeout
      self.maxConnections = maxConnections
      self.tls = tls
      self.handlerThreads = handlerThreads
      self.services = services
      self.pathPrefix = pathPrefix
    }

    /// Header limits far above what any client of the API sends (a bearer token, a content
    /// type), far below Hummingbird's 80 KiB: headers are held in memory whole.
    static let headerLimits = HTTP1Channel.Configuration.DecoderConfiguration(
      maxHeaderFieldSize: 8 << 10, maxHeaderListSize: 16 << 10, maxHeaderFieldCount: 100)
  }

  /// The port the server listens on (the one picked, when 0 was asked for).
  public let port: Int
  public let host: String
  /// Whether it serves https.
  public let isSecure: Bool
  private let services: ServiceGroup
  private let running: Task<Void, any Error>

  private init(
    host: String, port: Int, isSecure: Bool, services: ServiceGroup,
    running: Task<Void, any Error>
  ) {
    self.host = host
    self.port = port
    self.isSecure = isSecure
    self.services = services
    self.running = running
  }

  /// Starts listening and returns once the server accepts connections.
  public static func start(
    _ configuration: Configuration = Configuration(), handler: @escaping Handler
  ) async throws -> BackendHTTPServer {
    try await start(
      configuration, handler: handler,
      cap: ConnectionCap(maxConnections: configuration.maxConnections))
  }

  /// `start`, counting connections under `cap` (its `maxConnections`, not the
  /// configuration's).
  static func start(
    _ configuration: Configuration, handler: @escaping Handler, cap: ConnectionCap
  ) async throws -> BackendHTTPServer {
    let (bound, announce) = AsyncStream<Int>.makeStream()
    let application = try Self.application(configuration, handler: handler, cap: cap) { port in
      announce.yield(port)
      announce.finish()
    }
    let services = ServiceGroup(
      configuration: .init(
        // The application runs its own services in a group of its own, which shuts them
        // down last to first: the server, then what it uses.
        services: [application],
        gracefulShutdownSignals: configuration.shutdownSignals,
        logger: application.logger))
    // The group itself runs on the default executor. With a task executor preference,
    // swift-async-algorithms' `merge` (inside ServiceGroup) deadlocked against the group's
    // cancellation when a service failed at once (a port in use): the task re-enqueued on
    // its preferred executor while holding merge's lock, and needed the task's status lock
    // that the cancelling thread held (apple/swift-async-algorithms#430).
    let running = Task {
      // If the server cannot start, the wait below ends instead of waiting for ever.
      defer { announce.finish() }
      try await services.run()
    }
    var ports = bound.makeAsyncIterator()
    guard let port = await ports.next(), port > 0 else {
      running.cancel()
      let result = await running.result
      switch result {
      case .failure(let error):
        throw ServerError(
          ListenFailure.sentence(for: error, host: configuration.host, port: configuration.port))
      case .success:
        throw ServerError(
          "Cannot listen on \(configuration.host):\(configuration.port): it stopped at once.")
      }
    }
    return BackendHTTPServer(
      host: configuration.host, port: port, isSecure: configuration.tls != nil,
      services: services, running: running)
  }

  public var baseURL: URL { URL(string: "\(isSecure ? "https" : "http")://\(host):\(port)")! }

  /// The Hummingbird application that serves `handler` with `configuration`'s limits, TLS and
  /// access log, told the port once it listens. It runs in a service group with
  /// `configuration.services` (`start`, or HummingbirdTesting's frameworks).
  static func application(
    _ configuration: Configuration, handler: @escaping Handler, cap: ConnectionCap,
    onPort: @escaping @Sendable (Int) -> Void = { _ in }
  ) throws -> Application<CallbackResponder<ServerRequestContext>> {
    // Hummingbird's own logging stays quiet; the access log is ours.
    var quiet = Logger(label: "backend-http-server")
    quiet.logLevel = .critical
    return Application(
      responder: responder(configuration, handler: handler),
      server: try serverBuilder(configuration, cap: cap),
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port),
        availableConnectionsDelegate: MaximumAvailableConnections(cap.acceptLimit, logger: quiet)),
      services: configuration.services,
      onServerRunning: { channel in onPort(channel.localAddress?.port ?? 0) },
      logger: quiet)
  }

  /// Each request: its operation read from the target (it sets the body's limit), the body
  /// read up to that limit, the handler's answer on the executor, and the access log told.
  private static func responder(
    _ configuration: Configuration, handler: @escaping Handler
  ) -> CallbackResponder<ServerRequestContext> {
    let accessLog = configuration.accessLog
    let bodyLimits = configuration.bodyLimits
    let pathPrefix = configuration.pathPrefix
    // Never on the cooperative pool: see RequestExecutor and HandlerThreads.
    let handlerThreads =
      configuration.handlerThreads ?? .executor(RequestExecutor(label: "backend-http-server"))
    return CallbackResponder { request, context in
      let started = ContinuousClock.now
      let requestID = RequestID.take(from: request.headers[.init("X-Request-ID")!])
      let method = request.method.rawValue
      let full = RequestTarget(parsing: Substring(request.uri.description))
      // The operation is known before the body is read: it sets the body's limit.
      let target =
        full.pathSegments.starts(with: pathPrefix) ? full.droppingPrefix(pathPrefix) : nil
      let resolved = target.map {
        APIOperation.resolve(method: method, pathSegments: $0.pathSegments)
      }
      let operation = resolved?.operation
      let limit = bodyLimits.limit(for: operation)
      let answer: BackendHTTPResponse
      if let target, let resolved,
        let received = try await BackendHTTPRequest(
          request, target: target, resolved: resolved, upTo: limit,
          from: context.remoteAddress?.ipAddress)
      {
        answer = await withTaskExecutorPreference(
          handlerThreads.executor(for: context.channel.eventLoop)
        ) { await handler(received) }
      } else if target == nil {
        answer = .error(404, "not_found", "No route for \(method) \(request.uri.path)")
      } else {
        answer = BodyLimits.tooLarge(limit)
        // Read no more of this connection: Hummingbird would otherwise read the rest of the
        // body, to keep the connection for a next request. The answer still goes out, then
        // the connection closes.
        context.channel.close(mode: .input, promise: nil)
      }
      accessLog?(
        AccessLogEntry(
          requestID: requestID, method: method, path: request.uri.path, operation: operation,
          status: answer.status, milliseconds: Self.milliseconds(since: started),
          failure: answer.failure))
      var response = Response(answer.keepingItsFailureFromClients(requestID: requestID))
      response.headers[.init("X-Request-ID")!] = requestID
      return response
    }
  }

  /// Plain HTTP/1.1, or the same inside TLS.
  private static func serverBuilder(
    _ configuration: Configuration, cap: ConnectionCap
  ) throws -> HTTPServerBuilder {
    let http1 = HTTPServerBuilder.http1(
      configuration: .init(
        // Made for each connection as it is accepted: it counts the connection in.
        additionalChannelHandlers: [cap.handler()],
        idleTimeout: TimeAmount(configuration.idleTimeout),
        httpDecoderConfiguration: Configuration.headerLimits))
    guard let tls = configuration.tls else { return http1 }
    return try .tls(http1, tlsConfiguration: tls.configuration)
  }

  /// Stops listening and returns once the port is closed and every request in flight has
  /// been answered. A handler that holds its answer must be released first.
  ///
  /// Never a cancellation: cancelling drops connections SwiftNIO has accepted but not yet
  /// handed over, and SwiftNIO traps on that ("Deinited NIOAsyncWriter without calling
  /// finish()").
  public func stop() async {
    await services.triggerGracefulShutdown()
    _ = await running.result
  }

  /// Starts the graceful shutdown without waiting for it, for `defer` blocks.
  public func triggerStop() {
    let services = services
    Task { await services.triggerGracefulShutdown() }
  }

  /// Returns when the server has stopped (a shutdown signal, or `stop()`), throwing what
  /// made it fail if it did.
  public func waitUntilStopped() async throws {
    try await running.value
  }

  private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000
      + Double(elapsed.components.attoseconds) / 1e15
  }

  public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }
}
