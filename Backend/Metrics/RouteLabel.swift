import Contract

/// A request's route as a metric label: its operation's method and path template, so that
/// `/likes/9f3…/like` and `/likes/12a…/like` count together as `POST /likes/{id}/like`. A
/// request that is no operation of the contract (a stranger's made-up path, or a method its
/// path does not take) is `other`, so that it cannot create a series of its own.
enum RouteLabel {
  static func of(_ operation: APIOperation?) -> String {
    guard let operation else { return "other" }
    return "\(operation.method.rawValue) \(operation.path)"
  }
}
