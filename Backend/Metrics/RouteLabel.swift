/// A request's route as a metric label: the path with its ids replaced by placeholders, so
/// that `/likes/9f3…/like` and `/likes/12a…/like` count together, and any path that is no
/// route of the API is `other`, so that a stranger's made-up paths cannot create a series
/// each.
enum RouteLabel {
  static func of(method: String, path: String) -> String {
    let segments = path.split(separator: "/").map(String.init)
    let template: String? =
      switch segments.count {
      case 1 where known.contains(segments[0]): "/\(segments[0])"
      case 2 where segments[0] == "likes": "/likes/:id"
      case 2 where segments[0] == "messages": "/messages/:name"
      case 2 where pairs.contains("\(segments[0])/\(segments[1])"):
        "/\(segments[0])/\(segments[1])"
      case 3 where segments[0] == "likes" && segments[2] == "like": "/likes/:id/like"
      default: nil
      }
    return template.map { "\(method) \($0)" } ?? "other"
  }

  private static let known: Set<String> = [
    "likes", "mutuals", "events", "messages", "me", "healthz", "readyz", "metrics",
  ]
  private static let pairs: Set<String> = [
    "auth/signup", "auth/revoke", "oauth/token", "push/session", "push/status", "push/register",
    "push/deregister", "vendor/status", "vendor/register", "vendor/deregister",
  ]
}
