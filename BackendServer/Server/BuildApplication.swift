import Backend
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// Everything a served backend is made of but its storage: where it listens and its limits
/// (`http`), its log, and how the backend it opens behaves. `app serve` fills it from its
/// flags; a test fills it by hand.
public struct APIServerConfiguration: Sendable {
  public var http: BackendHTTPServer.Configuration
  public var accessLog: AccessLog?
  public var passwordRounds: Int
  /// The people it invents, as a demo (`app serve --demo`); nil, the default, for real use.
  public var demo: DemoPeople?
  public var pushFaults: [String: PushFault]
  /// How many likes and messages each account may send.
  public var actionLimits: ActionLimits
  /// The backend's time, randomness and long-poll clock: the system's in `app serve`.
  public var now: @Sendable () -> Date
  public var randomBytes: @Sendable (Int) -> [UInt8]
  public var clock: any Clock<Duration>

  public init(
    http: BackendHTTPServer.Configuration = .init(), accessLog: AccessLog? = nil,
    passwordRounds: Int = APIBackend.defaultPasswordRounds,
    demo: DemoPeople? = nil,
    pushFaults: [String: PushFault] = [:], actionLimits: ActionLimits = ActionLimits(),
    now: @escaping @Sendable () -> Date,
    randomBytes: @escaping @Sendable (Int) -> [UInt8], clock: any Clock<Duration>
  ) {
    self.http = http
    self.accessLog = accessLog
    self.passwordRounds = passwordRounds
    self.demo = demo
    self.pushFaults = pushFaults
    self.actionLimits = actionLimits
    self.now = now
    self.randomBytes = randomBytes
    self.clock = clock
  }
}

/// The served backend, in the shape of Hummingbird's template: what `app serve` runs once
/// its flags are read, and what the server tests run in process (HummingbirdTesting).
///
/// It owns the whole server side: the routes (the contract's, through `APIBackend`), health,
/// readiness and metrics, the access log, the body limits and the connection limits.
public func buildApplication(
  _ configuration: APIServerConfiguration, storage: BackendStorage
) throws -> APIServerApplication {
  try APIServerApplication(configuration: configuration, storage: storage)
}

/// A served backend, built and not yet listening. It is a Hummingbird application: run it
/// in a service group (`start()` does), or hand it to HummingbirdTesting's `test(_:_:)`.
///
/// The backend opens as one of its services (`OpeningBackend`), beside the listening
/// socket, and the storage's own services (a connection pool) run with it.
public struct APIServerApplication: ApplicationProtocol {
  /// Counted from the first request; `GET /metrics` shows them.
  public let metrics: ServerMetrics
  private let opening: OpeningBackend
  private let http: BackendHTTPServer.Configuration
  private let hummingbird: Application<CallbackResponder<ServerRequestContext>>
  private let connectionCap: ConnectionCap

  init(configuration: APIServerConfiguration, storage: BackendStorage) throws {
    let metrics = ServerMetrics.prometheus()
    let opening = OpeningBackend(metrics: metrics) {
      try await APIBackend.open(
        storage, now: configuration.now, randomBytes: configuration.randomBytes,
        clock: configuration.clock, passwordRounds: configuration.passwordRounds,
        demo: configuration.demo, pushFaults: configuration.pushFaults,
        actionLimits: configuration.actionLimits, metrics: metrics)
    }
    var http = configuration.http
    let log = configuration.accessLog
    http.accessLog = { entry in
      log?.request(entry)
      metrics.answered(
        operation: entry.operation, status: entry.status,
        duration: .microseconds(Int64(entry.milliseconds * 1000)))
    }
    // Requests run where the backend's work runs: one executor, no hop between two. A store
    // whose calls never block answers on the event loop that read the request.
    http.handlerThreads = storage.callsBlock ? .executor(APIBackend.executor) : .eventLoop
    // Shut down last to first: the server, then the backend, then its storage.
    http.services += storage.services + [opening]
    self.metrics = metrics
    self.opening = opening
    self.http = http
    connectionCap = ConnectionCap(maxConnections: http.maxConnections)
    self.hummingbird = try BackendHTTPServer.application(
      http, handler: opening.handle, cap: connectionCap)
  }

  /// Listens, then returns the running server once its backend is open. The port is bound
  /// first, so that a port in use is reported at once and not after the seconds a new
  /// database takes, and leaves nothing made behind; meanwhile `/healthz` answers (see
  /// `OpeningBackend`).
  public func start() async throws -> BackendHTTPServer {
    opening.waitForTheFirstAsking()
    let server = try await BackendHTTPServer.start(
      http, handler: opening.handle, cap: connectionCap)
    do {
      _ = try await opening.opened()
    } catch {
      await server.stop()
      throw error
    }
    return server
  }

  /// Connections open now, served or being refused past the cap.
  public var openConnections: Int { connectionCap.openConnections }

  /// The backend once it is open, for a test that runs the application itself and for what
  /// `app serve` says at start; throws what opening it threw.
  @discardableResult public func opened() async throws -> APIBackend {
    try await opening.opened()
  }

  // MARK: ApplicationProtocol, as the Hummingbird application built from `http`

  public var responder: CallbackResponder<ServerRequestContext> { hummingbird.responder }
  public var server: HTTPServerBuilder { hummingbird.server }
  public var configuration: ApplicationConfiguration { hummingbird.configuration }
  public var logger: Logger { hummingbird.logger }
  public var services: [any Service] { hummingbird.services }
}
