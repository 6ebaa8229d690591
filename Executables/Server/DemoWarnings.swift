import App
import Backend

/// What `app serve` says once at start about the demo, when its settings and its database
/// disagree with what a person probably meant.
enum DemoWarnings {
  static func atStart(
    _ settings: ServeSettings, environment: [String: String], backend: APIBackend
  ) -> [String] {
    var warnings: [String] = []
    if backend.refusesThePublishedDemoAccount {
      warnings.append(
        "warning: this database holds the demo account `\(DemoPeople.username)` with its "
          + "published password; this server is no demo, so it refuses that account's "
          + "sign-ins and tokens (start with --demo to serve it).")
    }
    if !settings.demo, environment["APP_DEMO_LIKE_SECONDS", default: ""] != "" {
      warnings.append(
        "warning: APP_DEMO_LIKE_SECONDS is for a demo only: this server invents nobody "
          + "(start with --demo, or APP_DEMO=1, for a demo).")
    }
    return warnings
  }
}
