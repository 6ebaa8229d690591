import Backend
import Prometheus

extension ServerMetrics {
  /// Metrics in a Prometheus registry of their own, shown by `GET /metrics`: a served
  /// backend's. Not the process-wide `MetricsSystem`, so that each server (and each test)
  /// counts apart.
  public static func prometheus() -> ServerMetrics {
    let registry = PrometheusCollectorRegistry()
    return ServerMetrics(
      factory: PrometheusMetricsFactory(registry: registry), emit: { registry.emitToBuffer() })
  }
}
