import Contract
import CoreMetrics

/// What the server counts and times, through swift-metrics: requests by route and status,
/// their latency, throttled and refused sign-ins, the hashing queue, and the database's time
/// per statement. The factory is injected, not the process-wide `MetricsSystem`, so that each
/// backend (and each test) has its own; `app serve` hands it a Prometheus registry.
public final class ServerMetrics: Sendable {
  /// Counts nothing: the embedded backend of a one-shot command.
  public static let none = ServerMetrics(factory: NOOPMetricsHandler.instance)

  private let factory: any MetricsFactory
  /// What `GET /metrics` shows; nil when nothing is kept.
  private let emit: (@Sendable () -> [UInt8])?
  private let throttled: Counter
  private let refusedBusy: Counter
  private let hashingWaiting: Gauge
  private let statementTime: Timer

  public convenience init(factory: any MetricsFactory) {
    self.init(factory: factory, emit: nil)
  }

  package init(factory: any MetricsFactory, emit: (@Sendable () -> [UInt8])?) {
    self.factory = factory
    self.emit = emit
    throttled = Counter(label: "app_sign_ins_throttled_total", factory: factory)
    refusedBusy = Counter(label: "app_sign_ins_refused_busy_total", factory: factory)
    hashingWaiting = Gauge(label: "app_password_hashing_waiting", factory: factory)
    statementTime = Timer(label: "app_database_statement_duration_seconds", factory: factory)
  }

  /// Prometheus's text format of everything counted so far; nil when nothing is kept.
  func exposition() -> [UInt8]? { emit?() }

  /// One answered request, labelled by its operation's template (`GET /likes/{id}/like`),
  /// never by a raw path.
  public func answered(operation: APIOperation?, status: Int, duration: Duration) {
    let route = RouteLabel.of(operation)
    Counter(
      label: "app_http_requests_total", dimensions: [("route", route), ("status", "\(status)")],
      factory: factory
    ).increment()
    Timer(
      label: "app_http_request_duration_seconds", dimensions: [("route", route)],
      factory: factory
    ).recordNanoseconds(Self.nanoseconds(duration))
  }

  func signInThrottled() { throttled.increment() }

  func signInRefusedBusy() { refusedBusy.increment() }

  func hashesWaiting(_ count: Int) { hashingWaiting.record(count) }

  func statement(took duration: Duration) {
    statementTime.recordNanoseconds(Self.nanoseconds(duration))
  }

  private static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }
}
