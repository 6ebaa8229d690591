import Foundation

/// Everything a served backend is made of but its storage: where it listens and its limits
/// (`http`), its log, and how the backend it opens behaves. `app serve` fills it from its
/// flags; a test fills it by hand.
public struct APIServerConfiguration: Sendable {
  public var http: BackendHTTPServer.Configuration
  public var accessLog: AccessLog?
  public var passwordRounds: Int
  public var likeInterval: ClosedRange<Double>
  public var pushFaults: [String: PushFault]
  /// The backend's time, randomness and long-poll clock: the system's in `app serve`.
  public var now: @Sendable () -> Date
  public var randomBytes: @Sendable (Int) -> [UInt8]
  public var clock: any Clock<Duration>

  public init(
    http: BackendHTTPServer.Configuration = .init(), accessLog: AccessLog? = nil,
    passwordRounds: Int = APIBackend.defaultPasswordRounds,
    likeInterval: ClosedRange<Double> = APIBackend.defaultLikeInterval,
    pushFaults: [String: PushFault] = [:], now: @escaping @Sendable () -> Date,
    randomBytes: @escaping @Sendable (Int) -> [UInt8], clock: any Clock<Duration>
  ) {
    self.http = http
    self.accessLog = accessLog
    self.passwordRounds = passwordRounds
    self.likeInterval = likeInterval
    self.pushFaults = pushFaults
    self.now = now
    self.randomBytes = randomBytes
    self.clock = clock
  }
}

/// The served backend, in the shape of Hummingbird's template: what `app serve` runs once
/// its flags are read, and what the server tests run in process.
///
/// It owns the whole server side: the routes (the contract's, through `APIBackend`), health,
/// readiness and metrics, the access log, the body limits and the connection limits.
public func buildApplication(
  _ configuration: APIServerConfiguration, store: APIBackend.Storage
) -> APIServerApplication {
  APIServerApplication(configuration: configuration, store: store)
}

/// A served backend, built and not yet listening.
public struct APIServerApplication: Sendable {
  let configuration: APIServerConfiguration
  let store: APIBackend.Storage

  /// Counted from the first request; `GET /metrics` shows them.
  public let metrics = ServerMetrics.prometheus()

  /// Listens, then opens the backend, and returns the running server. The port is bound
  /// first, so that a port in use is reported at once and not after the seconds a new
  /// database takes; meanwhile `/healthz` answers and other requests get a `503`.
  public func start() async throws -> BackendHTTPServer {
    let opening = OpeningBackend(metrics: metrics)
    var http = configuration.http
    let log = configuration.accessLog
    let metrics = metrics
    http.accessLog = { entry in
      log?.request(entry)
      metrics.answered(
        operation: entry.operation, status: entry.status,
        duration: .microseconds(Int64(entry.milliseconds * 1000)))
    }
    // Requests run where the backend's work runs: one executor, no hop between two.
    http.executor = APIBackend.executor
    if case .postgres(let postgres) = store { http.services += postgres.services }
    let server = try await BackendHTTPServer.start(http, handler: opening.handle)
    do {
      try await opening.open { [configuration, store, metrics] in
        try await APIBackend.open(
          store, now: configuration.now, randomBytes: configuration.randomBytes,
          clock: configuration.clock, passwordRounds: configuration.passwordRounds,
          likeInterval: configuration.likeInterval, pushFaults: configuration.pushFaults,
          metrics: metrics)
      }
    } catch {
      await server.stop()
      throw error
    }
    return server
  }
}
