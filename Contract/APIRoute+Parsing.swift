extension APIRoute {
  /// What a request's method and target are, read against the contract.
  public enum Parsed: Sendable, Hashable {
    /// An operation of the contract, with its values.
    case route(APIRoute)
    /// An operation of the contract whose query breaks its rules: a `422` with `problem`,
    /// once the request's authorization has been checked.
    case invalidQuery(APIOperation, problem: String)
    /// A path of the contract that does not take this method: a `405` with `Allow`.
    case methodNotAllowed(allowed: [APIMethod])
    /// No path of the contract: a `404`.
    case notFound
  }

  /// Reads a request as the server received it. `method` as the request line has it.
  public static func parse(method: String, target: RequestTarget) -> Parsed {
    parse(APIOperation.resolve(method: method, pathSegments: target.pathSegments), target: target)
  }

  /// Reads a request whose operation the server has resolved already (it sets the body's
  /// limit before the body is read): the path is not matched a second time.
  public static func parse(_ resolved: APIOperation.Resolved, target: RequestTarget) -> Parsed {
    switch resolved {
    case .operation(let operation, let pathValues):
      do {
        return .route(try APIRoute(operation, pathValues: pathValues, target: target))
      } catch {
        return .invalidQuery(operation, problem: error.problem)
      }
    case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed: allowed)
    case .notFound: return .notFound
    }
  }

  /// A query value that breaks the contract's rule for it.
  struct InvalidQuery: Error {
    let problem: String
  }

  /// The route of `operation`, with its path's values and its query checked against the
  /// contract's rules (API.md: `page` ≥ 1, `batchSize` in 1…100, `wait` in 0…30).
  init(_ operation: APIOperation, pathValues: [String], target: RequestTarget) throws(InvalidQuery)
  {
    switch operation {
    case .signUp: self = .signUp
    case .issueToken: self = .issueToken
    case .profile: self = .profile
    case .revokeToken: self = .revokeToken
    case .listConversations: self = .listConversations
    case .conversation: self = .conversation(name: pathValues[0])
    case .addMessage: self = .addMessage
    case .likesPage:
      let (page, batchSize) = try Self.pageAndBatchSize(target)
      self = .likesPage(page: page, batchSize: batchSize)
    case .peoplePage:
      let (page, batchSize) = try Self.pageAndBatchSize(target)
      self = .peoplePage(page: page, batchSize: batchSize)
    case .likePerson: self = .likePerson(id: pathValues[0])
    case .passPerson: self = .passPerson(id: pathValues[0])
    case .blockPerson: self = .blockPerson(id: pathValues[0])
    case .unmatch: self = .unmatch(id: pathValues[0])
    case .likeBack: self = .likeBack(id: pathValues[0])
    case .skipLike: self = .skipLike(id: pathValues[0])
    case .mutuals: self = .mutuals
    case .events:
      let after = try Self.number(target, "after", in: Int.min...Int.max, "a whole number")
      let wait =
        target.value(of: "wait") == nil
        ? 0
        : try Self.number(target, "wait", in: 0...30, "a whole number of seconds from 0 to 30")
      self = .events(after: after, wait: wait)
    case .pushSession: self = .pushSession
    case .pushStatus:
      self = .pushStatus(session: target.value(of: "session"), uuid: try Self.uuid(target))
    case .pushRegister: self = .pushRegister
    case .pushDeregister: self = .pushDeregister
    case .vendorStatus: self = .vendorStatus(uuid: try Self.uuid(target))
    case .vendorRegister: self = .vendorRegister
    case .vendorDeregister: self = .vendorDeregister
    case .health: self = .health
    case .readiness: self = .readiness
    case .metrics: self = .metrics
    }
  }

  private static func pageAndBatchSize(_ target: RequestTarget) throws(InvalidQuery) -> (
    page: Int, batchSize: Int
  ) {
    (
      try number(target, "page", in: 1...Int.max, "a whole number from 1"),
      try number(target, "batchSize", in: 1...100, "a whole number from 1 to 100")
    )
  }

  private static func number(
    _ target: RequestTarget, _ name: String, in range: ClosedRange<Int>, _ rule: String
  ) throws(InvalidQuery) -> Int {
    guard let value = target.value(of: name).flatMap({ Int($0) }), range.contains(value) else {
      throw InvalidQuery(problem: "\(name) must be \(rule)")
    }
    return value
  }

  private static func uuid(_ target: RequestTarget) throws(InvalidQuery) -> String {
    guard let uuid = target.value(of: "uuid"), !uuid.isEmpty else {
      throw InvalidQuery(problem: "uuid is required")
    }
    return uuid
  }
}

extension APIOperation {
  /// Which operation a method and a decoded path are.
  public enum Resolved: Sendable, Hashable {
    case operation(APIOperation, pathValues: [String])
    case methodNotAllowed(allowed: [APIMethod])
    case notFound

    /// The operation, when the method and the path are one.
    public var operation: APIOperation? {
      guard case .operation(let operation, _) = self else { return nil }
      return operation
    }
  }

  /// The operation of `method` on `pathSegments`; when the path is the contract's but the
  /// method is not, the methods the path takes (for `405`'s `Allow`).
  public static func resolve(method: String, pathSegments: [String]) -> Resolved {
    var allowed: [APIMethod] = []
    for (operation, path, operationMethod) in paths {
      guard let values = path.match(pathSegments) else { continue }
      if operationMethod.rawValue == method { return .operation(operation, pathValues: values) }
      allowed.append(operationMethod)
    }
    return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed.sorted())
  }

  /// The table's rows, read once: every request is matched against them.
  private static let paths = allCases.map { ($0, $0.path, $0.method) }
}

extension APIOperation {
  /// The operation of `method` on `pathSegments`, if it is one.
  public static func of(method: String, pathSegments: [String]) -> APIOperation? {
    resolve(method: method, pathSegments: pathSegments).operation
  }
}

extension RequestTarget {
  /// The target below `prefix`, which its path starts with.
  public func droppingPrefix(_ prefix: [String]) -> RequestTarget {
    RequestTarget(pathSegments: Array(pathSegments.dropFirst(prefix.count)), query: query)
  }
}
