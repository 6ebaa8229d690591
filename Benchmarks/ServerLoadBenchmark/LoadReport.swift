import Foundation

/// Requests per second and latency percentiles, per kind of request and in all.
struct LoadReport {
  let outcomes: [ClientOutcome]
  let seconds: Double

  var failures: Int { outcomes.reduce(0) { $0 + $1.failures.count } }

  func print() {
    let timings = outcomes.flatMap(\.timings)
    Swift.print(
      String(
        format: "all: %d requests in %.1f s = %.0f requests/s, %d failed", timings.count, seconds,
        Double(timings.count) / seconds, failures))
    Swift.print(line("all", timings.map(\.milliseconds)))
    let busy = outcomes.reduce(0) { $0 + $1.refusedBusy }
    if busy > 0 {
      Swift.print("  sign-ins refused as busy (503), then asked again after Retry-After: \(busy)")
    }
    for kind in RequestKind.allCases {
      let durations = timings.filter { $0.kind == kind }.map(\.milliseconds)
      if !durations.isEmpty { Swift.print(line(kind.rawValue, durations)) }
    }
    for failure in outcomes.flatMap(\.failures).prefix(5) { Swift.print("FAILED: \(failure)") }
  }

  private func line(_ name: String, _ durations: [Double]) -> String {
    let sorted = durations.sorted()
    func percentile(_ p: Double) -> Double {
      sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
    let label = name.padding(toLength: 18, withPad: " ", startingAt: 0)
    return "  \(label)"
      + String(
        format: "%7d   p50 %7.1f ms   p99 %7.1f ms   max %7.1f ms", sorted.count,
        percentile(0.5), percentile(0.99), sorted.last ?? 0)
  }
}
